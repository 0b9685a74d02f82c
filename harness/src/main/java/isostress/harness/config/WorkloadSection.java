package isostress.harness.config;

import isostress.generator.KeyDistribution;
import isostress.generator.MtShape;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a campaign's {@code workload:} section into a {@link WorkloadSpec} for {@link CampaignLoader}: the workload
 * type and its defaults, the key distribution, the mini-transaction shapes and the sql workload's isolation mix. Each
 * problem goes to the section's {@link ConfigNode} with its key path; what depends on other sections (the database,
 * the nemesis) is checked by the loader.
 */
final class WorkloadSection {
    private static final List<String> KEYS = List.of("type", "sessions", "transactions", "keys", "distribution",
            "zipf-exponent", "hot-keys", "hot-ops", "exponential-mean", "seed", "shapes", "min-ops", "max-ops",
            "read-ratio", "rmw-ratio", "rotate-after", "duration", "groups", "isolation-mix", "read-from",
            "rate", "final-read");
    /** The levels an sql workload's {@code isolation-mix} may name. */
    private static final List<String> MIX_LEVELS = List.of("read-committed", "repeatable-read", "snapshot",
            "serializable");
    /** Most keys a zipfian distribution may have: its table takes 8 bytes per key (80 MB here). */
    private static final int MAX_ZIPFIAN_KEYS = 10_000_000;

    private WorkloadSection() {
    }

    static WorkloadSpec read(ConfigNode w) {
        w.rejectUnknownKeys(KEYS);
        String typeName = w.choice("type", "mini", List.of("mini", "rw-register", "list-append", "cas", "sql"));
        WorkloadType type = typeName == null ? WorkloadType.MINI : WorkloadType.byName(typeName);
        // sql: small by default, since the SQL checker's search is exponential in conflicts (Bouajjani,
        // Enea and Román-Calvo, CAV 2025).
        boolean sql = type == WorkloadType.SQL;
        int sessions = w.integer("sessions", sql ? 3L : 8L, 1, 10_000).intValue();
        int transactions = w.integer("transactions", sql ? 30L : 10_000L, 1, Integer.MAX_VALUE).intValue();
        int keys = w.integer("keys", sql ? 6L : 100L, 1, 1L << 30).intValue();
        long seed = w.integer("seed", 42L, Long.MIN_VALUE, Long.MAX_VALUE);
        KeyDistribution d = distribution(w, keys);
        Map<MtShape, Double> shapes = new EnumMap<>(MtShape.class);
        Map<String, String> raw = w.scalars("shapes");
        weights(w, "shapes", raw, WorkloadSection::shape, "unknown mini-transaction shape; shapes are "
                + Arrays.toString(MtShape.values()), shapes);
        if (type == WorkloadType.MINI && !raw.isEmpty() && shapes.values().stream().noneMatch(v -> v > 0)) {
            w.problem("shapes", "at least one shape needs a positive weight");
        }
        if (type == WorkloadType.MINI && keys < 2 && (shapes.isEmpty()
                || shapes.entrySet().stream().anyMatch(e -> e.getKey().twoKeys() && e.getValue() > 0))) {
            w.problem("keys", "two-key mini-transaction shapes need at least 2 keys, was " + keys
                    + " (or give only one-key shapes under workload.shapes)");
        }
        int minOps = w.integer("min-ops", 1L, 1, 10_000).intValue();
        int maxOps = w.integer("max-ops", type == WorkloadType.MINI || sql ? 4L : 10L, 1, 10_000).intValue();
        if (maxOps < minOps) w.problem("max-ops", "must be >= min-ops (" + minOps + "), was " + maxOps);
        double readRatio = w.number("read-ratio", sql ? 0.4 : 0.5, 0, 1, false);
        double rmwRatio = w.number("rmw-ratio", 0.5, 0, 1, false);
        int rotate = w.integer("rotate-after", 0L, 0, Integer.MAX_VALUE).intValue();
        if (!sql && w.has("groups")) w.problem("groups", "only applies to workload.type sql");
        if (!sql && w.has("isolation-mix")) w.problem("isolation-mix", "only applies to workload.type sql");
        int groups = w.integer("groups", 3L, 1, 1_000_000).intValue();
        Map<String, Double> mix = new TreeMap<>();
        Map<String, String> rawMix = w.scalars("isolation-mix");
        weights(w, "isolation-mix", rawMix, l -> MIX_LEVELS.contains(l) ? l : null, "unknown isolation level; the "
                + "mix takes " + String.join(", ", MIX_LEVELS), mix);
        if (!rawMix.isEmpty() && mix.values().stream().noneMatch(v -> v > 0)) {
            w.problem("isolation-mix", "at least one level needs a positive weight");
        }
        mix.values().removeIf(v -> v == 0);
        return new WorkloadSpec(type, sessions, transactions, keys, d, seed, shapes, minOps, Math.max(minOps, maxOps),
                readRatio, rmwRatio, rotate, groups, mix);
    }

    private static KeyDistribution distribution(ConfigNode w, int keys) {
        String dist = w.choice("distribution", "uniform", List.of("uniform", "zipfian", "hotspot", "exponential"));
        double exponent = w.number("zipf-exponent", 1.0, 0, 100, true);
        double hotKeys = w.number("hot-keys", 0.2, 0, 1, true);
        double hotOps = w.number("hot-ops", 0.8, 0, 1, false);
        double mean = w.number("exponential-mean", 0.1, 0, 1e6, true);
        if ("zipfian".equals(dist) && keys > MAX_ZIPFIAN_KEYS) {
            w.problem("keys", "zipfian keeps a table of 8 bytes per key; at most " + MAX_ZIPFIAN_KEYS + ", was "
                    + keys);
            dist = "uniform";
        }
        switch (dist == null ? "uniform" : dist) {
            case "zipfian": return new KeyDistribution.Zipfian(keys, exponent);
            case "hotspot": return new KeyDistribution.Hotspot(keys, hotKeys, hotOps);
            case "exponential": return new KeyDistribution.Exponential(keys, mean);
            default: return new KeyDistribution.Uniform(keys);
        }
    }

    /**
     * Reads the weights under {@code key} ({@code raw}, name to weight) into {@code out}: a name {@code known} maps
     * to null is reported with {@code unknown}, a weight must be a finite number >= 0.
     */
    private static <K> void weights(ConfigNode w, String key, Map<String, String> raw, Function<String, K> known,
                                    String unknown, Map<K, Double> out) {
        for (Map.Entry<String, String> e : raw.entrySet()) {
            K k = known.apply(e.getKey());
            if (k == null) {
                w.problem(key + "." + e.getKey(), unknown);
                continue;
            }
            try {
                double v = Double.parseDouble(e.getValue());
                if (!(v >= 0) || Double.isInfinite(v)) throw new NumberFormatException();
                out.put(k, v);
            } catch (NumberFormatException ex) {
                w.problem(key + "." + e.getKey(), "weight must be a number >= 0, was '" + e.getValue() + "'");
            }
        }
    }

    private static MtShape shape(String name) {
        for (MtShape s : MtShape.values()) if (s.name().equalsIgnoreCase(name)) return s;
        return null;
    }

    /** A transaction rate beyond which no client keeps pace (one per microsecond); above it is surely a typo. */
    static final double MAX_RATE = 1_000_000;
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*/\\s*s");

    /**
     * {@code workload.rate}: transactions per second over all sessions, written {@code 500/s} (or a bare number);
     * 0, the default, runs closed-loop (each session starts its next transaction when the last ends).
     */
    static double rate(ConfigNode w) {
        if (!w.has("rate")) return 0;
        String s = w.string("rate", null);
        if (s == null) return 0; // reported
        Matcher m = RATE.matcher(s.trim());
        double v;
        if (m.matches()) {
            v = Double.parseDouble(m.group(1));
        } else {
            try {
                v = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                v = Double.NaN;
            }
        }
        if (!(v >= 0) || !Double.isFinite(v)) {
            w.problem("rate", "must be transactions per second such as 500/s (0: as fast as possible), was '"
                    + ConfigNode.shorten(s) + "'");
            return 0;
        }
        if (v > MAX_RATE) {
            w.problem("rate", "must be at most " + (long) MAX_RATE + "/s, was '" + ConfigNode.shorten(s) + "'");
            return 0;
        }
        return v;
    }
}
