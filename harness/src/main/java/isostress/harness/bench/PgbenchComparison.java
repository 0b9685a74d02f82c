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
 * isolation, on the same embedded PostgreSQL, for the same time. pgbench runs in both its query modes: {@code -M
 * simple} (each statement parsed and planned every time) and {@code -M prepared} (each statement prepared once per
 * connection, as isostress's clients do). After an uncounted isostress warm-up of up to 5 s (JIT compilation), each
 * round runs isostress, then pgbench simple, then pgbench prepared,
 * back to back; the ratios are taken within a round (paired, so the shared machine's drift moves both sides) and
 * reported as min/median/max over the rounds. Keys are uniform (pgbench's zipfian needs an exponent above 1).
 * pgbench 15 counts serialization failures and goes on; its tps counts committed transactions only, like
 * isostress's commits/s.
 */
final class PgbenchComparison {
    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern FAILED = Pattern.compile("number of failed transactions: (\\d+) \\(([0-9.]+)%\\)");

    private PgbenchComparison() {
    }

    /**
     * Medians over the rounds: isostress commits/s, pgbench tps in each mode, and the paired ratios isostress /
     * pgbench (each the median of the rounds' ratios).
     */
    record Result(int rounds, double isostress, double simple, double prepared, double simpleRatio,
                  double preparedRatio) {
    }

    static Result run(String version, int sessions, int seconds, int keys, String isolation, int rounds,
                      PrintWriter out) throws IOException, InterruptedException {
        double[] iso = new double[rounds], simple = new double[rounds], prepared = new double[rounds];
        double[] rs = new double[rounds], rp = new double[rounds];
        try (BenchServer server = BenchServer.start(version, sessions * 2 + 4)) {
            out.println("server: " + server.description() + "; " + sessions + " sessions, " + seconds + " s each, "
                    + keys + " uniform keys, " + isolation + ", " + rounds + " round(s)");
            Path dir = Files.createTempDirectory("isostress-pgbench");
            try {
                List<String> scripts = new ArrayList<>();
                for (MtShape s : MtShape.values()) {
                    Path f = dir.resolve(s.name() + ".sql");
                    Files.writeString(f, script(s, keys, isolation), StandardCharsets.UTF_8);
                    scripts.add(f + "@1");
                }
                // Not counted: the JVM compiles the client's hot paths (pgbench is compiled ahead of time).
                out.println("warm-up (not counted):");
                isostress(server, sessions, Math.min(seconds, 5), keys, isolation, out);
                for (int r = 0; r < rounds; r++) {
                    iso[r] = isostress(server, sessions, seconds, keys, isolation, out);
                    simple[r] = pgbench(server, "simple", sessions, seconds, scripts, out);
                    prepared[r] = pgbench(server, "prepared", sessions, seconds, scripts, out);
                    rs[r] = iso[r] / simple[r];
                    rp[r] = iso[r] / prepared[r];
                    out.printf(Locale.ROOT, "round %d: isostress / pgbench -M simple = %.2f, isostress / pgbench -M "
                            + "prepared = %.2f%n", r + 1, rs[r], rp[r]);
                }
            } finally {
                Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
            }
        }
        out.printf(Locale.ROOT, "isostress: %s commits/s%n", spread(iso, "%,.0f"));
        out.printf(Locale.ROOT, "pgbench -M simple: %s tps; -M prepared: %s tps%n", spread(simple, "%,.0f"),
                spread(prepared, "%,.0f"));
        out.printf(Locale.ROOT, "isostress / pgbench -M simple = %.2f (%s)%n", median(rs), spread(rs, "%.2f"));
        out.printf(Locale.ROOT, "isostress / pgbench -M prepared = %.2f (%s)%n", median(rp), spread(rp, "%.2f"));
        return new Result(rounds, median(iso), median(simple), median(prepared), median(rs), median(rp));
    }

    private static double isostress(BenchServer server, int sessions, int seconds, int keys, String isolation,
                                    PrintWriter out) throws IOException, InterruptedException {
        RunOutcome iso = server.run("overhead", isolation, "{type: mini, sessions: " + sessions
                + ", transactions: " + (seconds * 30_000L) + ", keys: " + keys + ", distribution: uniform, duration: "
                + seconds + "s, seed: 1}", "[serializable]");
        if (iso.error() != null) throw new IOException("isostress run failed: " + iso.error());
        out.printf(Locale.ROOT, "  isostress: %,.0f commits/s (%,d committed, %.1f%% aborted, verdict %s; recorder "
                        + "%.1f%% of session time)%n", iso.stats().throughput(), iso.stats().committed(),
                100 * iso.stats().abortRate(), iso.result() == null ? "unknown" : iso.result().verdict().jsonName(),
                100 * (double) iso.stats().sessionTimeMs().get("recorder_share"));
        return iso.stats().throughput();
    }

    /**
     * pgbench in {@code mode} (simple or prepared) with the shapes' scripts; returns its tps. One pgbench thread per
     * connection ({@code -j} = sessions), as isostress has one thread per session: on a machine shared with other
     * work the scheduler then gives both sides the same number of runnable threads (with {@code -j 2}, pgbench's
     * share shrank as the machine's load grew, flattering isostress).
     */
    private static double pgbench(BenchServer server, String mode, int sessions, int seconds, List<String> scripts,
                                  PrintWriter out) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("pgbench", "-n", "-M", mode, "-h", server.hostPort()[0], "-p",
                server.hostPort()[1], "-U", "postgres", "-c", String.valueOf(sessions), "-j",
                String.valueOf(sessions), "-T", String.valueOf(seconds)));
        for (String f : scripts) {
            cmd.add("-f");
            cmd.add(f);
        }
        cmd.add("postgres");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("pgbench failed: " + text);
        }
        Matcher m = TPS.matcher(text);
        if (!m.find()) throw new IOException("no tps in pgbench's output: " + text);
        double tps = Double.parseDouble(m.group(1));
        Matcher f = FAILED.matcher(text);
        out.printf(Locale.ROOT, "  pgbench -M %s: %,.0f tps (%s%% failed)%n", mode, tps, f.find() ? f.group(2) : "?");
        return tps;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** "median (min-max)" in {@code format}. */
    private static String spread(double[] xs, String format) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return String.format(Locale.ROOT, format + " median, " + format + "-" + format, median(s), s[0],
                s[s.length - 1]);
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
