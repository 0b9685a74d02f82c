package isostress.checker.model;

import java.util.List;

/**
 * What joining a history with a witness file found (docs/witness.md): counts, and the findings listed.
 *
 * @param source             the witness file
 * @param transactions       log transactions in the witness
 * @param matched            log transactions each of whose writes some transaction of the history made (a log
 *                           transaction without writes is not matched)
 * @param infoCommitted      {@code info} transactions the log shows committed (all their writes in one log transaction)
 * @param infoAborted        {@code info} transactions with writes none of which is in the log
 * @param lostWrite          {@link WitnessFinding.Kind#LOST_WRITE} transactions
 * @param splitCommit        {@link WitnessFinding.Kind#SPLIT_COMMIT} transactions
 * @param failedButCommitted {@link WitnessFinding.Kind#FAILED_BUT_COMMITTED} transactions
 * @param unrecordedWrite    log transactions holding a {@link WitnessFinding.Kind#UNRECORDED_WRITE}
 * @param inCaptureGap       transactions with writes that no log holds and that ran while some member's log was not
 *                           read (a capture following a moving primary): neither lost (ok) nor aborted (info) by
 *                           the log's word, as the log that would hold them was not read
 * @param findings           the findings, at most the result's limit per kind
 */
public record WitnessReport(String source, long transactions, long matched, long infoCommitted, long infoAborted,
                            long lostWrite, long splitCommit, long failedButCommitted, long unrecordedWrite,
                            long inCaptureGap, List<WitnessFinding> findings) {

    public WitnessReport {
        findings = List.copyOf(findings);
    }

    /** A report of a capture without gaps (every log read over the whole run). */
    public WitnessReport(String source, long transactions, long matched, long infoCommitted, long infoAborted,
                         long lostWrite, long splitCommit, long failedButCommitted, long unrecordedWrite,
                         List<WitnessFinding> findings) {
        this(source, transactions, matched, infoCommitted, infoAborted, lostWrite, splitCommit, failedButCommitted,
                unrecordedWrite, 0, findings);
    }

    /** Findings of every kind, listed or not. */
    public long findingCount() {
        return lostWrite + splitCommit + failedButCommitted + unrecordedWrite;
    }

    /**
     * "witness: 9,812 log transactions; 9,790 matched; info resolved 12 committed, 3 aborted; 0 lost, 0 split,
     * 0 failed-but-committed, 0 unrecorded", and "; 4 writers in capture gaps" when some are.
     */
    public String summary() {
        return String.format(java.util.Locale.ROOT, "witness: %,d log transactions; %,d matched; info resolved %,d "
                + "committed, %,d aborted; %,d lost, %,d split, %,d failed-but-committed, %,d unrecorded",
                transactions, matched, infoCommitted, infoAborted, lostWrite, splitCommit, failedButCommitted,
                unrecordedWrite) + (inCaptureGap > 0 ? String.format(java.util.Locale.ROOT,
                "; %,d writers in capture gaps (no log read then; neither lost nor aborted)", inCaptureGap) : "");
    }
}
