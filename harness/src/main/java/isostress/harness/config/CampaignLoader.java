package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Databases;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.faults.NemesisSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads a campaign YAML into a {@link Campaign}, checking everything before anything starts: unknown keys, wrong
 * types, impossible values (sessions: 0), and combinations the database lacks (snapshot on MariaDB). Every problem
 * is reported, each with file, line and key path (models: HikariCP's {@code HikariConfig.validate()} and Caffeine's
 * {@code CaffeineSpec}, without their warn-and-reset of bad values). The sections are read by
 * {@link WorkloadSection}, {@link DatabaseSection} and {@link NemesisSection}; this class reads the rest and checks
 * what spans sections (an sql workload's needs, levels the isolation setting promises, durations against the nemesis).
 */
public final class CampaignLoader {
    private static final List<String> TOP = List.of("name", "database", "workload", "check", "runs",
            "stop-on-violation", "store", "nemesis");
    /** The levels the SQL checker decides (docs/sql-history.md). */
    private static final List<IsolationLevel> SQL_LEVELS = List.of(IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE);
    /** The workloads checked while they run. */
    private static final java.util.Set<WorkloadType> STREAMABLE = java.util.EnumSet.of(WorkloadType.MINI,
            WorkloadType.RW_REGISTER, WorkloadType.LIST_APPEND);
    private static final List<String> CHECK = List.of("levels", "max-anomalies", "search-budget", "streaming", "timeout",
            "witness");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
    /** Longest duration of anything (a year): durations are later taken in nanoseconds, which overflow at 292 years. */
    static final Duration MAX_DURATION = ConfigNode.MAX_DURATION;

    private CampaignLoader() {
    }

    /**
     * Loads and validates {@code file}: any content either gives a Campaign or a {@link ConfigException}, in time
     * linear in its size (at most {@link CampaignText#MAX_CHARS} bytes).
     */
    public static Campaign load(Path file) throws IOException {
        return load(file, null);
    }

    /**
     * {@link #load(Path)}, with {@code database.provision} replaced by {@code provision} (the CLI's {@code
     * --provision}; null keeps the file's) and everything checked as if the file said so. The campaign's text, which
     * each run stores, ends with a comment saying so.
     */
    public static Campaign load(Path file, Provision provision) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), List.of(file + ": no such campaign file"));
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of(file + ": cannot read it: " + e.getMessage()));
        }
        List<String> problems = new ArrayList<>();
        String text = CampaignText.decode(file.toString(), bytes, problems);
        if (text == null) throw new ConfigException(file.toString(), problems);
        return validate(file, text, problems, provision);
    }

    /** Validates campaign {@code bytes}, as if read from {@code file}. */
    static Campaign fromBytes(Path file, byte[] bytes) {
        List<String> problems = new ArrayList<>();
        String text = CampaignText.decode(file.toString(), bytes, problems);
        if (text == null) throw new ConfigException(file.toString(), problems);
        return validate(file, text, problems, null);
    }

    /** Validates campaign {@code text}, as if read from {@code file}. */
    public static Campaign parse(Path file, String text) {
        return parse(file, text, null);
    }

    /**
     * Validates campaign {@code text}, as if read from {@code file}, with {@code provision} as in
     * {@link #load(Path, Provision)}.
     */
    public static Campaign parse(Path file, String text, Provision provision) {
        List<String> problems = new ArrayList<>();
        String checked = CampaignText.check(file.toString(), text, problems);
        if (checked == null) throw new ConfigException(file.toString(), problems);
        return validate(file, checked, problems, provision);
    }

    private static Campaign validate(Path file, String text, List<String> problems, Provision provisionOverride) {
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
        WorkloadSpec workload = WorkloadSection.read(w);
        Duration duration = w.duration("duration", false); // 0 would run nothing and report it valid
        double rate = WorkloadSection.rate(w);
        if (rate > 0 && workload.type() == WorkloadType.SQL) {
            w.problem("rate", "applies to key-value workloads (mini, rw-register, list-append, cas), not sql");
        }
        NemesisSpec nemesis = root.has("nemesis") ? NemesisSection.read(root.object("nemesis"), workload.seed()) : null;
        DatabaseSpec db = DatabaseSection.read(root.object("database"), nemesis, provisionOverride, w, workload.type());
        if (nemesis != null) NemesisSection.checkAgainst(root.object("nemesis"), nemesis, db);
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
        // The streaming check takes prefixes closed under reads-from, which unique written values make exact: the
        // mini, rw-register and list-append workloads. cas histories are per-key linearizability, sql ones have
        // predicates: neither has a prefix check.
        boolean streamable = STREAMABLE.contains(workload.type());
        Boolean streaming = c.bool("streaming", null);
        if (Boolean.TRUE.equals(streaming) && !streamable) {
            c.problem("streaming", "needs workload.type mini, rw-register or list-append, was "
                    + workload.type().yamlName());
        }
        boolean stream = streaming == null ? streamable : streaming && streamable;
        Duration checkTimeout = c.duration("timeout", false);
        if (checkTimeout != null && !sql) c.problem("timeout", "only applies to workload.type sql (the SQL checker)");
        boolean witness = CheckWitness.read(c, db, workload.type());
        Path store = root.path("store", "store");
        if (duration != null && nemesis != null && duration.compareTo(nemesis.interval()) <= 0) {
            w.problem("duration", "is not longer than nemesis.interval (" + nemesis.interval().toMillis()
                    + " ms): no fault would happen");
        }
        boolean finalRead = finalRead(w, workload.type(), nemesis != null);
        if (!problems.isEmpty()) throw new ConfigException(f, problems);
        return new Campaign(name, file, db, workload, duration, rate, levels, maxAnomalies, searchBudget, runs, stop,
                stream, store, overridden(text, provisionOverride), nemesis,
                checkTimeout == null ? Duration.ofSeconds(60) : checkTimeout, witness, finalRead);
    }

    /**
     * {@code workload.final-read}: on by default with a nemesis for the workloads whose final reads the checker
     * judges (rw-register, list-append); asked for on another workload, a problem.
     */
    private static boolean finalRead(ConfigNode w, WorkloadType type, boolean nemesis) {
        boolean judged = type == WorkloadType.RW_REGISTER || type == WorkloadType.LIST_APPEND;
        Boolean asked = w.bool("final-read", null);
        if (Boolean.TRUE.equals(asked) && !judged) {
            w.problem("final-read", "applies to workload.type rw-register or list-append (whose writes the final "
                    + "reads show), was " + type.yamlName());
        }
        return asked == null ? nemesis && judged : asked && judged;
    }

    /** The text a run stores: as written, plus (at the end, so lines keep their numbers) what the CLI overrode. */
    private static String overridden(String text, Provision provision) {
        if (provision == null) return text;
        String p = provision.name().toLowerCase(Locale.ROOT);
        return text + (text.endsWith("\n") ? "" : "\n") + "# run with --provision " + p + ": database.provision was "
                + p + " in this run\n";
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
            w.problem("type", "sql needs an SQL database (" + Databases.either(Databases.names(
                    t -> t instanceof JdbcDatabase)) + "), was " + db.type().name());
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
