package isostress.harness.run;

import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.harness.db.Secrets;

/**
 * How a run ended.
 *
 * @param index      run number, from 0
 * @param seed       the workload seed
 * @param dir        its run directory
 * @param database   what database it ran on, or null when none started
 * @param stats      what the clients did
 * @param result     the check, or null when the history could not be checked
 * @param unchecked  why the history was not checked, or null
 * @param error      why the run stopped early (infrastructure, configuration), or null
 * @param faults     the faults the nemesis injected
 * @param nodes      per node: outcomes of transactions untouched and touched by faults on their node
 * @param streaming  what the check while running did, or null when it did not run
 * @param interrupted true when Ctrl-C (or SIGTERM) ended the run: the history is what was recorded until then, and
 *                   it was not checked
 */
public record RunOutcome(int index, long seed, RunDirectory dir, String database, RunStats stats, Result result,
                         String unchecked, String error, java.util.List<isostress.harness.faults.FaultRecord> faults,
                         java.util.Map<String, Object> nodes, StreamingReport streaming,
                         boolean interrupted) {
    /** The exit status of an interrupted run: 128 + SIGINT, what a shell reports for a command ended by Ctrl-C. */
    public static final int INTERRUPTED = 130;

    /** Masks secrets in the texts results.json, report.html, the summary and stdout show (a driver may quote them). */
    public RunOutcome {
        database = Secrets.mask(database);
        unchecked = Secrets.mask(unchecked);
        error = Secrets.mask(error);
    }

    /** A run that was not interrupted. */
    public RunOutcome(int index, long seed, RunDirectory dir, String database, RunStats stats, Result result,
                      String unchecked, String error, java.util.List<isostress.harness.faults.FaultRecord> faults,
                      java.util.Map<String, Object> nodes, StreamingReport streaming) {
        this(index, seed, dir, database, stats, result, unchecked, error, faults, nodes, streaming, false);
    }

    /** The end-of-run verdict, or null when the history was not checked. */
    public Verdict verdict() {
        return result == null ? null : result.verdict();
    }

    /** The exit status this run alone would give: 130 interrupted, 2 error, 1 invalid, 3 unknown, 0 valid. */
    public int exitStatus() {
        if (interrupted) return INTERRUPTED;
        if (error != null) return 2;
        Verdict v = verdict();
        if (v == null) return 3;
        return v == Verdict.VALID ? 0 : v == Verdict.INVALID ? 1 : 3;
    }

    /** True when the end-of-run check (authoritative) found a violation. */
    public boolean violation() {
        return verdict() == Verdict.INVALID;
    }

    /** When the first violation happened and how it was found, or null when there was none. */
    public FirstViolation firstViolation() {
        return violation() && result != null ? FirstViolation.of(result, streaming) : null;
    }

    /** The streaming check's detection, or null. */
    public StreamingReport.Detection detection() {
        return streaming == null ? null : streaming.detection();
    }
}
