package isostress.checker.model;

import java.util.List;

/**
 * What the lost-write analysis found in a history with final reads.
 *
 * @param writes   acknowledged writes it could judge (a read of their key began after they completed)
 * @param lost     how many of those no later read shows
 * @param findings the first of them, at most the configured number of anomalies per name, in history order
 */
public record LostWriteReport(int writes, int lost, List<LostWrite> findings) {
    public LostWriteReport {
        findings = List.copyOf(findings);
    }
}
