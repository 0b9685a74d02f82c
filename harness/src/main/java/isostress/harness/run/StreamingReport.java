package isostress.harness.run;

import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;

/**
 * What the streaming check ({@link StreamingCheck}) did in one run: results.json's {@code streaming}.
 *
 * @param detection   the first violation found while running, or null
 * @param checks      prefixes checked
 * @param checkMsMax  the longest check (cutting the prefix included), ms
 * @param prefixTxns  transactions in the last prefix checked
 * @param lastCheckMs how long that check took, ms
 * @param gaveUp      why checking stopped early without a violation (a huge or unexpected history), or null
 */
public record StreamingReport(Detection detection, int checks, long checkMsMax, int prefixTxns, long lastCheckMs,
                              String gaveUp) {

    /**
     * The first violation found while running.
     *
     * @param detectedNs  when the check that found it ended, ns since the run started
     * @param completedNs when its violating transaction completed, ns since the run started; -1 when no
     *                    counterexample was listed
     * @param txn         the violating transaction as the whole history numbers it, e.g. {@code T8812}: the last of
     *                    the counterexample's transactions to complete, the one that made it a violation; or null
     * @param anomaly     the counterexample's anomaly name, e.g. {@code G2-item}
     * @param level       the weakest level it proves violated
     * @param counterexample the counterexample itself, its transactions numbered as in the whole history; null when
     *                    none was listed
     */
    public record Detection(long detectedNs, long completedNs, String txn, String anomaly, IsolationLevel level,
                            Anomaly counterexample) {
        /** From the violating transaction's completion to the end of the check that found it, ns; -1 unknown. */
        public long latencyNs() {
            return completedNs < 0 ? -1 : detectedNs - completedNs;
        }
    }
}
