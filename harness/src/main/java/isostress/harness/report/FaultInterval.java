package isostress.harness.report;

/**
 * A fault as the charts shade it: what, where, and when in history time (nanoseconds since the run started).
 *
 * @param end when it was healed, or -1 if the history ended first (shaded to the end of the chart)
 */
record FaultInterval(String kind, String node, long start, long end) {
    String label() {
        return node == null || node.isEmpty() ? kind : kind + " " + node;
    }
}
