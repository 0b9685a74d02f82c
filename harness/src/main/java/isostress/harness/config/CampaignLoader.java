package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.KeyDistribution;
import isostress.generator.MtShape;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Databases;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.db.Secrets;
import isostress.harness.faults.Fault;
import isostress.harness.faults.Faults;
import isostress.harness.faults.NemesisSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a campaign YAML into a {@link Campaign}, checking everything before anything starts: unknown keys, wrong
 * types, impossible values (sessions: 0), and combinations the database lacks (snapshot on MariaDB). Every problem
 * is reported, each with file, line and key path (models: HikariCP's {@code HikariConfig.validate()} and Caffeine's
 * {@code CaffeineSpec}, without their warn-and-reset of bad values).
 */
public final class CampaignLoader {
    private static final List<String> TOP = List.of("name", "database", "workload", "check", "runs",
            "stop-on-violation", "store", "nemesis");
    private static final List<String> DATABASE = List.of("type", "provision", "version", "url", "user-env",
            "password-env", "isolation", "settings", "nodes", "image", "timeout", "connect-timeout", "writes", "op-pause",
            "tables");
    private static final List<String> NEMESIS = List.of("faults", "interval", "duration", "targets", "latency",
            "seed");
    private static final List<String> WORKLOAD = List.of("type", "sessions", "transactions", "keys", "distribution",
            "zipf-exponent", "hot-keys", "hot-ops", "exponential-mean", "seed", "shapes", "min-ops", "max-ops",
            "read-ratio", "rmw-ratio", "rotate-after", "duration", "groups", "isolation-mix", "rate");
    /** The levels an sql workload's {@code isolation-mix} may name. */
    private static final List<String> MIX_LEVELS = List.of("read-committed", "repeatable-read", "snapshot",
            "serializable");
    /** The levels the SQL checker decides (docs/sql-history.md). */
    private static final List<IsolationLevel> SQL_LEVELS = List.of(IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE);
    private static final List<String> CHECK = List.of("levels", "max-anomalies", "search-budget", "streaming", "timeout");
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(\\.\\d+)?");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
    /** Longest duration of anything (a year): durations are later taken in nanoseconds, which overflow at 292 years. */
    static final Duration MAX_DURATION = ConfigNode.MAX_DURATION;
    /** Most keys a zipfian distribution may have: its table takes 8 bytes per key (80 MB here). */
    static final int MAX_ZIPFIAN_KEYS = 10_000_000;

    private CampaignLoader() {
    }

    /**
     * Loads and validates {@code file}: any content either gives a Campaign or a {@link ConfigException}, in time
     * linear in its size (at most {@link CampaignText#MAX_CHARS} bytes).
     */
    public static Campaign load(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), List.of(file + ": no such campaign file"));
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of(file + ": cannot read it: " + e.getMessage()));
        }
        return fromBytes(file, bytes);
    }

    /** Validates campaign {@code bytes}, as if read from {@code file}. */
    static Campaign fromBytes(Path file, byte[] bytes) {
        List<String> problems = new ArrayList<>();
        String text = CampaignText.decode(file.toString(), bytes, problems);
        if (text == null) throw new ConfigException(file.toString(), problems);
        return validate(file, text, problems);
    }

    /** Validates campaign {@code text}, as if read from {@code file}. */
    public static Campaign parse(Path file, String text) {
        List<String> problems = new ArrayList<>();
        String checked = CampaignText.check(file.toString(), text, problems);
        if (checked == null) throw new ConfigException(file.toString(), problems);
        return validate(file, checked, problems);
    }

    private static Campaign validate(Path file, String text, List<String> problems) {
        String f = file.toString();
        ConfigNode root = ConfigNode.parse(f, text, problems);
        if (root == null) throw new ConfigException(f, problems);
        root.rejectUnknownKeys(TOP);

        String fileName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        String name = root.string("name", fileName);
        if (name != null && (!NAME.matcher(name).matches() || name.equals(".") || name.equals(".."))) {
            root.problem("name", "must be letters, digits, '.', '_' or '-' (it names a directory), was '" + name + "'");
        }
        ConfigNode w = root.object("workload");
        WorkloadSpec workload = workload(w);
        Duration duration = w.duration("duration", false); // 0 would run nothing and report it valid
        double rate = rate(w);
        if (rate > 0 && workload.type() == WorkloadType.SQL) {
            w.problem("rate", "applies to key-value workloads (mini, rw-register, list-append, cas), not sql");
        }
        NemesisSpec nemesis = root.has("nemesis") ? nemesis(root.object("nemesis"), workload.seed()) : null;
        DatabaseSpec db = database(root.object("database"), nemesis);
        if (nemesis != null) checkTargets(root.object("nemesis"), nemesis, db);
        ConfigNode c = root.object("check");
        c.rejectUnknownKeys(CHECK);
        boolean sql = workload.type() == WorkloadType.SQL;
        if (sql) checkSql(w, root.object("database"), workload, db, nemesis);
        // sql: each transaction is checked at its own level; check.levels adds checks as if all ran at one level.
        List<IsolationLevel> levels = sql && !c.has("levels") ? List.of() : levels(c, db);
        if (sql) {
            for (int i = 0; i < levels.size(); i++) {
                if (!SQL_LEVELS.contains(levels.get(i))) {
                    c.problem("levels[" + i + "]", "the SQL checker decides read-committed, read-atomic, prefix, "
                            + "snapshot-isolation and serializable, was " + levels.get(i).cliName());
                }
            }
        }
        int maxAnomalies = c.integer("max-anomalies", 10L, 1, 10_000).intValue();
        long searchBudget = c.integer("search-budget", 2_000_000L, 1, Long.MAX_VALUE);
        int runs = root.integer("runs", 1L, 1, 1_000_000).intValue();
        Campaign.StopOnViolation stop = Campaign.StopOnViolation.byName(
                root.boolOrChoice("stop-on-violation", "false", List.of("run", "campaign")));
        // The streaming check relies on MTC's linear checks of mini-transactions (MTC §IV); general histories need
        // the polygraph search, far too slow to repeat every few hundred milliseconds.
        boolean mini = workload.type() == WorkloadType.MINI;
        Boolean streaming = c.bool("streaming", null);
        if (Boolean.TRUE.equals(streaming) && !mini) {
            c.problem("streaming", "needs workload.type mini (the linear mini-transaction checks), was "
                    + workload.type().yamlName());
        }
        boolean stream = streaming == null ? mini : streaming && mini;
        Duration checkTimeout = c.duration("timeout", false);
        if (checkTimeout != null && !sql) c.problem("timeout", "only applies to workload.type sql (the SQL checker)");
        Path store = root.path("store", "store");
        if (duration != null && nemesis != null && duration.compareTo(nemesis.interval()) <= 0) {
            w.problem("duration", "is not longer than nemesis.interval (" + nemesis.interval().toMillis()
                    + " ms): no fault would happen");
        }
        if (!problems.isEmpty()) throw new ConfigException(f, problems);
        return new Campaign(name, file, db, workload, duration, rate, levels, maxAnomalies, searchBudget, runs, stop,
                stream, store, text, nemesis, checkTimeout == null ? Duration.ofSeconds(60) : checkTimeout);
    }

    /** A transaction rate beyond which no client keeps pace (one per microsecond); above it is surely a typo. */
    static final double MAX_RATE = 1_000_000;
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*/\\s*s");

    /**
     * {@code workload.rate}: transactions per second over all sessions, written {@code 500/s} (or a bare number);
     * 0, the default, runs closed-loop (each session starts its next transaction when the last ends).
     */
    private static double rate(ConfigNode w) {
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

    /**
     * {@code file:line keyPath} of a loaded campaign's key, for problems found once it runs (a server refusing a
     * setting); the line of the nearest enclosing key that is written down, or 1.
     */
    public static String where(Campaign c, String keyPath) {
        ConfigNode root = ConfigNode.parse(c.source().toString(), c.text(), new ArrayList<>());
        return c.source() + ":" + (root == null ? 1 : root.lineOf(keyPath)) + " " + keyPath;
    }

    /** What an sql workload needs from the database and its isolation mix. */
    private static void checkSql(ConfigNode w, ConfigNode d, WorkloadSpec workload, DatabaseSpec db,
                                 NemesisSpec nemesis) {
        if (!(db.type() instanceof JdbcDatabase)) {
            w.problem("type", "sql needs an SQL database (postgresql, mariadb or mysql), was " + db.type().name());
        }
        if (nemesis != null) w.problem("type", "sql workloads do not run under a nemesis yet");
        if (db.nodes() > 1) d.problem("nodes", "sql workloads run on a single server for now");
        if (db.tables() > 1) d.problem("tables", "sql workloads use one table (acct); tables is for the key-value ones");
        if (db.upsert()) d.problem("writes", "sql workloads choose their own statements (updates and upserts)");
        for (String level : workload.isolationMix().keySet()) {
            if (level.equals("snapshot") && db.type().isolationProblem(Isolation.SNAPSHOT) != null) {
                w.problem("isolation-mix." + level, db.type().name() + " has no snapshot isolation level; use "
                        + "repeatable-read");
            }
        }
    }

    private static NemesisSpec nemesis(ConfigNode n, long workloadSeed) {
        n.rejectUnknownKeys(NEMESIS);
        List<String> names = n.strings("faults");
        List<Fault> faults = new ArrayList<>();
        if (names == null || names.isEmpty()) {
            n.problem("faults", "must list at least one of " + Faults.names());
        } else {
            for (int i = 0; i < names.size(); i++) {
                Optional<Fault> f = Faults.byName(names.get(i));
                if (f.isEmpty()) {
                    n.problem("faults[" + i + "]", "unknown fault '" + names.get(i) + "'; known: " + Faults.names());
                } else if (!faults.contains(f.get())) {
                    faults.add(f.get());
                }
            }
        }
        Duration interval = orDefault(n.duration("interval", false), Duration.ofSeconds(10));
        Duration length = orDefault(n.duration("duration", false), Duration.ofSeconds(5));
        Duration latency = orDefault(n.duration("latency", false), Duration.ofMillis(100));
        List<Integer> targets = new ArrayList<>();
        List<String> t = n.strings("targets");
        if (t != null) {
            for (int i = 0; i < t.size(); i++) {
                try {
                    int v = Integer.parseInt(t.get(i).trim().replaceFirst("^n", ""));
                    if (v < 1) throw new NumberFormatException();
                    targets.add(v);
                } catch (NumberFormatException e) {
                    n.problem("targets[" + i + "]", "must be a node number from 1 (or n1, n2, ...), was '" + t.get(i) + "'");
                }
            }
        }
        long seed = n.integer("seed", workloadSeed, Long.MIN_VALUE, Long.MAX_VALUE);
        return new NemesisSpec(faults, interval, length, targets, latency, seed);
    }

    private static void checkTargets(ConfigNode n, NemesisSpec nemesis, DatabaseSpec db) {
        for (int i = 0; i < nemesis.targets().size(); i++) {
            if (nemesis.targets().get(i) > db.nodes()) {
                n.problem("targets[" + i + "]", "node " + nemesis.targets().get(i) + " does not exist: the database has "
                        + db.nodes() + " node(s)");
            }
        }
        boolean started = db.provision() != Provision.EXTERNAL;
        List<Fault> anywhere = new ArrayList<>();
        for (Fault f : Faults.all()) if (!f.needs().contains(Fault.Need.STARTED_DATABASE)) anywhere.add(f);
        String allowed = Faults.names(anywhere);
        int last = allowed.lastIndexOf(", ");
        if (last >= 0) allowed = allowed.substring(0, last) + " and " + allowed.substring(last + 2);
        for (Fault f : nemesis.faults()) {
            if (f.needs().contains(Fault.Need.STARTED_DATABASE) && !started) {
                n.problem("faults", f.name() + " needs a database isostress starts (provision embedded, local or "
                        + "docker); an external one only allows " + allowed);
            }
        }
    }

    private static Duration orDefault(Duration d, Duration dflt) {
        return d == null ? dflt : d;
    }

    private static DatabaseSpec database(ConfigNode d, NemesisSpec nemesis) {
        d.rejectUnknownKeys(DATABASE);
        String typeName = d.choice("type", "postgresql", Databases.names());
        Database type = Databases.byName(typeName == null ? "postgresql" : typeName);
        String dfltProvision = type.defaultProvision().name().toLowerCase(Locale.ROOT);
        String prov = d.choice("provision", dfltProvision, List.of("embedded", "local", "docker", "external"));
        Provision provision = Provision.EXTERNAL;
        if (prov != null) provision = Provision.valueOf(prov.toUpperCase(Locale.ROOT));
        if (type.provisionProblem(provision) != null) d.problem("provision", type.provisionProblem(provision));
        String version = d.string("version", type.defaultVersion(provision));
        if (version != null && provision == Provision.EMBEDDED && !VERSION.matcher(version).matches()) {
            d.problem("version", "must look like 16.15 or 12.3.0, was '" + version + "'");
        }
        String url = d.string("url", null);
        if (provision == Provision.EXTERNAL) {
            if (url == null) {
                d.problem("url", "is required with provision: external (a JDBC URL)");
            } else if (type.urlProblem(url) != null) {
                d.problem("url", type.urlProblem(url));
            }
        } else if (url != null) {
            d.problem("url", "only applies to provision: external");
        }
        String userEnv = d.string("user-env", null), passwordEnv = d.string("password-env", null);
        for (String[] e : new String[][] {{"user-env", userEnv}, {"password-env", passwordEnv}}) {
            if (e[1] != null && System.getenv(e[1]) == null) {
                d.problem(e[0], "environment variable " + e[1] + " is not set");
            }
        }
        String iso = d.choice("isolation", "serializable", List.of("read-uncommitted", "read-committed",
                "repeatable-read", "snapshot", "serializable"));
        Isolation isolation = Isolation.SERIALIZABLE;
        if (iso != null) isolation = Isolation.valueOf(iso.toUpperCase(Locale.ROOT).replace('-', '_'));
        if (type.isolationProblem(isolation) != null) d.problem("isolation", type.isolationProblem(isolation));
        Map<String, String> settings = d.scalars("settings");
        int nodes = d.integer("nodes", 1L, 1, 9).intValue();
        if (type.nodesProblem(nodes) != null) d.problem("nodes", type.nodesProblem(nodes));
        if (nodes > 1 && provision == Provision.EXTERNAL) {
            d.problem("nodes", "only applies when isostress starts the database; for an external cluster give every "
                    + "node's address in the url");
        }
        String image = d.string("image", null);
        if (image != null && provision != Provision.DOCKER) d.problem("image", "only applies to provision: docker");
        Duration timeout = d.duration("timeout", false);
        if (timeout == null) timeout = nemesis != null ? Campaign.DEFAULT_TIMEOUT : Duration.ofSeconds(60);
        Duration connectTimeout = d.duration("connect-timeout", false);
        if (connectTimeout == null) {
            connectTimeout = timeout.compareTo(Campaign.DEFAULT_TIMEOUT) < 0 ? timeout : Campaign.DEFAULT_TIMEOUT;
        }
        String writes = d.choice("writes", "update", List.of("update", "upsert"));
        boolean sql = type instanceof JdbcDatabase;
        if ("upsert".equals(writes) && !sql) {
            d.problem("writes", "upsert is SQL's; " + type.name() + " writes are updates of documents");
        }
        Duration opPause = d.duration("op-pause", true); // 0: no pause, the default
        int tables = d.integer("tables", 1L, 1, 1000).intValue();
        if (tables > 1 && !sql) d.problem("tables", "tables is SQL's; " + type.name() + " uses one collection");
        DatabaseSpec db = new DatabaseSpec(type, provision, version, url, userEnv, passwordEnv, isolation,
                settings, nodes, image, timeout, "upsert".equals(writes), opPause == null ? Duration.ZERO : opPause,
                tables, connectTimeout);
        Secrets.register(db);
        return db;
    }

    private static WorkloadSpec workload(ConfigNode w) {
        w.rejectUnknownKeys(WORKLOAD);
        String typeName = w.choice("type", "mini", List.of("mini", "rw-register", "list-append", "cas", "sql"));
        WorkloadType type = typeName == null ? WorkloadType.MINI : WorkloadType.byName(typeName);
        // sql: small by default, since the SQL checker's search is exponential in conflicts (notes-003 §5).
        boolean sql = type == WorkloadType.SQL;
        int sessions = w.integer("sessions", sql ? 3L : 8L, 1, 10_000).intValue();
        int transactions = w.integer("transactions", sql ? 30L : 10_000L, 1, Integer.MAX_VALUE).intValue();
        int keys = w.integer("keys", sql ? 6L : 100L, 1, 1L << 30).intValue();
        long seed = w.integer("seed", 42L, Long.MIN_VALUE, Long.MAX_VALUE);
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
        KeyDistribution d;
        switch (dist == null ? "uniform" : dist) {
            case "zipfian": d = new KeyDistribution.Zipfian(keys, exponent); break;
            case "hotspot": d = new KeyDistribution.Hotspot(keys, hotKeys, hotOps); break;
            case "exponential": d = new KeyDistribution.Exponential(keys, mean); break;
            default: d = new KeyDistribution.Uniform(keys);
        }
        Map<MtShape, Double> shapes = new EnumMap<>(MtShape.class);
        Map<String, String> raw = w.scalars("shapes");
        for (Map.Entry<String, String> e : raw.entrySet()) {
            MtShape s = shape(e.getKey());
            if (s == null) {
                w.problem("shapes." + e.getKey(), "unknown mini-transaction shape; shapes are "
                        + java.util.Arrays.toString(MtShape.values()));
                continue;
            }
            try {
                double v = Double.parseDouble(e.getValue());
                if (!(v >= 0) || Double.isInfinite(v)) throw new NumberFormatException();
                shapes.put(s, v);
            } catch (NumberFormatException ex) {
                w.problem("shapes." + e.getKey(), "weight must be a number >= 0, was '" + e.getValue() + "'");
            }
        }
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
        Map<String, Double> mix = new java.util.TreeMap<>();
        Map<String, String> rawMix = w.scalars("isolation-mix");
        for (Map.Entry<String, String> e : rawMix.entrySet()) {
            if (!MIX_LEVELS.contains(e.getKey())) {
                w.problem("isolation-mix." + e.getKey(), "unknown isolation level; the mix takes "
                        + String.join(", ", MIX_LEVELS));
                continue;
            }
            try {
                double v = Double.parseDouble(e.getValue());
                if (!(v >= 0) || Double.isInfinite(v)) throw new NumberFormatException();
                mix.put(e.getKey(), v);
            } catch (NumberFormatException ex) {
                w.problem("isolation-mix." + e.getKey(), "weight must be a number >= 0, was '" + e.getValue() + "'");
            }
        }
        if (!rawMix.isEmpty() && mix.values().stream().noneMatch(v -> v > 0)) {
            w.problem("isolation-mix", "at least one level needs a positive weight");
        }
        mix.values().removeIf(v -> v == 0);
        return new WorkloadSpec(type, sessions, transactions, keys, d, seed, shapes, minOps, Math.max(minOps, maxOps),
                readRatio, rmwRatio, rotate, groups, mix);
    }

    private static MtShape shape(String name) {
        for (MtShape s : MtShape.values()) if (s.name().equalsIgnoreCase(name)) return s;
        return null;
    }

    /** The levels asked for, or by default what the isolation setting promises. */
    private static List<IsolationLevel> levels(ConfigNode c, DatabaseSpec db) {
        List<String> names = c.strings("levels");
        List<IsolationLevel> out = new ArrayList<>();
        if (names == null) {
            out.add(promised(db.isolation()));
            return out;
        }
        if (names.isEmpty()) c.problem("levels", "must name at least one level");
        for (int i = 0; i < names.size(); i++) {
            IsolationLevel l = IsolationLevel.byName(names.get(i));
            if (l == null) {
                c.problem("levels[" + i + "]", "unknown level '" + names.get(i) + "'; levels are " + IsolationLevel.names());
            } else if (!out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * What an isolation setting promises, as a level the checker knows: read uncommitted and read committed
     * promise read committed (the weakest level checked); repeatable read and snapshot are taken as snapshot
     * isolation (PostgreSQL implements repeatable read as SI; MySQL/MariaDB users expect it); serializable.
     */
    static IsolationLevel promised(Isolation i) {
        switch (i) {
            case READ_UNCOMMITTED:
            case READ_COMMITTED: return IsolationLevel.READ_COMMITTED;
            case REPEATABLE_READ:
            case SNAPSHOT: return IsolationLevel.SNAPSHOT_ISOLATION;
            default: return IsolationLevel.SERIALIZABLE;
        }
    }
}
