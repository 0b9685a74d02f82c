package isostress.harness.run;

import isostress.checker.history.Outcome;
import isostress.harness.faults.FaultRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every transaction's node, time span and outcome, to tell how faults touched the clients: of the transactions whose
 * node had no fault while they ran, how many still ended {@code info} (the target is at most 5%).
 */
final class NodeOutcomes {
    private final List<String> names;
    private final List<long[]> spans = new ArrayList<>(); // per node: start, end, outcome ordinal, ...
    private final int[] sizes;

    NodeOutcomes(List<String> names) {
        this.names = List.copyOf(names);
        this.sizes = new int[names.size()];
        for (int i = 0; i < names.size(); i++) spans.add(new long[3 * 1024]);
    }

    /**
     * @param node  the session's node
     * @param ranOn the node the transaction ran on when the client chose it (read routing), else null
     */
    synchronized void record(int node, String ranOn, long start, long end, Outcome o) {
        if (ranOn != null && names.indexOf(ranOn) >= 0) node = names.indexOf(ranOn);
        long[] a = spans.get(node);
        int n = sizes[node];
        if (3 * n + 3 > a.length) spans.set(node, a = java.util.Arrays.copyOf(a, a.length * 2));
        a[3 * n] = start;
        a[3 * n + 1] = end;
        a[3 * n + 2] = o.ordinal();
        sizes[node] = n + 1;
    }

    /**
     * Per node and in total: ok, fail, info counts of transactions untouched by faults on their node, and of those
     * a fault touched. A kill, pause or partition anywhere in a cluster can delay others' commits, so "touched" is
     * deliberately narrow: a fault on this transaction's own node overlapping its span.
     */
    synchronized Map<String, Object> summary(List<FaultRecord> faults, long runEnd) {
        Map<String, Object> out = new LinkedHashMap<>();
        long[] total = new long[6];
        for (int node = 0; node < names.size(); node++) {
            long[] c = new long[6];
            long[] a = spans.get(node);
            for (int i = 0; i < sizes[node]; i++) {
                long s = a[3 * i], e = a[3 * i + 1];
                boolean touched = false;
                for (FaultRecord f : faults) {
                    long fe = f.end() < 0 ? runEnd : f.end();
                    if (f.node().equals(names.get(node)) && f.start() <= e && fe >= s) {
                        touched = true;
                        break;
                    }
                }
                int o = (int) a[3 * i + 2];
                int slot = (touched ? 3 : 0) + (o == Outcome.OK.ordinal() ? 0 : o == Outcome.FAIL.ordinal() ? 1 : 2);
                c[slot]++;
                total[slot]++;
            }
            out.put(names.get(node), counts(c));
        }
        out.put("all", counts(total));
        return out;
    }

    private static Map<String, Object> counts(long[] c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("untouched_ok", c[0]);
        m.put("untouched_fail", c[1]);
        m.put("untouched_info", c[2]);
        long untouched = c[0] + c[1] + c[2];
        m.put("untouched_determinate_ratio", untouched == 0 ? 1.0 : Math.round(1e4 * (c[0] + c[1]) / (double) untouched) / 1e4);
        m.put("touched_ok", c[3]);
        m.put("touched_fail", c[4]);
        m.put("touched_info", c[5]);
        return m;
    }
}
