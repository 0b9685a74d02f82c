package isostress.harness.bench;

import isostress.generator.MtShape;
import isostress.harness.run.RunOutcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Harness overhead: committed mini-transaction throughput of isostress (JDBC clients recording every event to the
 * history) against pgbench (libpq, recording nothing) running the same 14 shapes with the same weights, keys and
 * isolation, on the same embedded PostgreSQL, for the same time. Keys are uniform (pgbench's zipfian needs an
 * exponent above 1). pgbench 15 counts serialization failures and goes on; its tps counts committed transactions
 * only, like isostress's commits/s.
 */
final class PgbenchComparison {
    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern FAILED = Pattern.compile("number of failed transactions: (\\d+) \\(([0-9.]+)%\\)");

    private PgbenchComparison() {
    }

    /** Returns {isostress commits/s, pgbench tps}. */
    static double[] run(String version, int sessions, int seconds, int keys, String isolation, PrintWriter out)
            throws IOException, InterruptedException {
        try (BenchServer server = BenchServer.start(version, sessions * 2 + 4)) {
            out.println("server: " + server.description() + "; " + sessions + " sessions, " + seconds + " s each, "
                    + keys + " uniform keys, " + isolation);
            RunOutcome iso = server.run("overhead", isolation, "{type: mini, sessions: " + sessions
                    + ", transactions: " + (seconds * 30_000L) + ", keys: " + keys + ", distribution: uniform, duration: " + seconds
                    + "s, seed: 1}", "[serializable]");
            if (iso.error() != null) throw new IOException("isostress run failed: " + iso.error());
            double isoTps = iso.stats().throughput();
            out.printf(Locale.ROOT, "isostress: %,.0f commits/s (%,d committed, %.1f%% aborted, verdict %s)%n", isoTps,
                    iso.stats().committed(), 100 * iso.stats().abortRate(),
                    iso.result() == null ? "unknown" : iso.result().verdict().jsonName());
            Path dir = Files.createTempDirectory("isostress-pgbench");
            try {
                List<String> cmd = new ArrayList<>(List.of("pgbench", "-n", "-h", server.hostPort()[0], "-p",
                        server.hostPort()[1], "-U", "postgres", "-c", String.valueOf(sessions), "-j",
                        String.valueOf(Math.min(sessions, 2)), "-T", String.valueOf(seconds)));
                for (MtShape s : MtShape.values()) {
                    Path f = dir.resolve(s.name() + ".sql");
                    Files.writeString(f, script(s, keys, isolation), StandardCharsets.UTF_8);
                    cmd.add("-f");
                    cmd.add(f + "@1");
                }
                cmd.add("postgres");
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IOException("pgbench failed: " + text);
                }
                Matcher m = TPS.matcher(text);
                if (!m.find()) throw new IOException("no tps in pgbench's output: " + text);
                double pgTps = Double.parseDouble(m.group(1));
                Matcher f = FAILED.matcher(text);
                out.printf(Locale.ROOT, "pgbench:   %,.0f tps (%s%% failed)%n", pgTps, f.find() ? f.group(2) : "?");
                out.printf(Locale.ROOT, "isostress / pgbench = %.2f%n", isoTps / pgTps);
                return new double[] {isoTps, pgTps};
            } finally {
                Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
            }
        }
    }

    /** A pgbench script doing shape {@code s}: the same statements isostress sends. */
    static String script(MtShape s, int keys, String isolation) {
        StringBuilder sb = new StringBuilder();
        sb.append("\\set k1 random(0, ").append(keys - 1).append(")\n");
        sb.append("\\set k2 (:k1 + random(1, ").append(Math.max(1, keys - 1)).append(")) % ").append(keys).append('\n');
        sb.append("\\set v random(1, 1000000000)\n");
        sb.append("BEGIN ISOLATION LEVEL ").append(isolation.toUpperCase(Locale.ROOT).replace('-', ' ')).append(";\n");
        for (int i = 0; i < s.size(); i++) {
            String k = s.slot(i) == 0 ? ":k1" : ":k2";
            if (s.isWrite(i)) sb.append("UPDATE isostress_kv SET v = :v + ").append(i).append(" WHERE k = ").append(k).append(";\n");
            else sb.append("SELECT v FROM isostress_kv WHERE k = ").append(k).append(";\n");
        }
        return sb.append("END;\n").toString();
    }
}
