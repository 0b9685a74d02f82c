package isostress.harness.bench;

import com.fasterxml.jackson.databind.json.JsonMapper;
import isostress.harness.run.RunOutcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * Abort rates at serializable on embedded PostgreSQL as sessions grow, for mini-transactions and, beside them,
 * general rw-register transactions of a fixed size (MTC §V-D: 1.3-7.9% against 44-67% for 20-op transactions).
 */
final class AbortRateSweep {
    private AbortRateSweep() {
    }

    static void run(String version, List<Integer> sessions, int txns, int keys, String dist, int ops, PrintWriter out)
            throws IOException, InterruptedException {
        int max = sessions.stream().mapToInt(Integer::intValue).max().orElse(8);
        try (BenchServer server = BenchServer.start(version, max * 2 + 4)) {
            out.println("server: " + server.description() + "; " + txns + " transactions per run, " + keys + " "
                    + dist + " keys, serializable");
            out.printf(Locale.ROOT, "%-9s %-22s %-22s%n", "sessions", "mini abort rate", "rw-register (" + ops + " ops)");
            List<Map<String, Object>> json = new ArrayList<>();
            for (int s : sessions) {
                RunOutcome mini = server.run("aborts-mini-" + s, "serializable", "{type: mini, sessions: " + s
                        + ", transactions: " + txns + ", keys: " + keys + ", distribution: " + dist + ", seed: 1}",
                        "[serializable]");
                RunOutcome general = server.run("aborts-rw-" + s, "serializable", "{type: rw-register, sessions: " + s
                        + ", transactions: " + txns + ", keys: " + keys + ", distribution: " + dist + ", min-ops: "
                        + ops + ", max-ops: " + ops + ", read-ratio: 0.5, rmw-ratio: 0.5, seed: 1}", "[serializable]");
                for (RunOutcome o : List.of(mini, general)) {
                    if (o.error() != null) throw new IOException("run failed: " + o.error());
                }
                out.printf(Locale.ROOT, "%-9d %6.2f%% (%,d commits/s) %6.2f%% (%,d commits/s)%n", s,
                        100 * mini.stats().abortRate(), Math.round(mini.stats().throughput()),
                        100 * general.stats().abortRate(), Math.round(general.stats().throughput()));
                out.flush();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("sessions", s);
                row.put("mini_abort_rate", Math.round(mini.stats().abortRate() * 1e4) / 1e4);
                row.put("rw_register_abort_rate", Math.round(general.stats().abortRate() * 1e4) / 1e4);
                json.add(row);
            }
            out.println(JsonMapper.builder().build().writeValueAsString(json));
        }
    }
}
