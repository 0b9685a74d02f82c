package isostress.harness.cli;

import isostress.checker.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.sql.SqlCheckOptions;
import isostress.checker.sql.SqlChecker;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlHistoryReader;
import isostress.checker.sql.SqlResult;
import isostress.harness.store.ResultWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code isostress check FILE}: reads a history and checks it. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check a recorded history against isolation levels and explain any violation.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:valid at every level asked", "1:invalid", "2:bad input or usage", "3:unknown",
                "70:internal error"})
public final class CheckCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE",
            description = "History file (JSON lines, isostress-sql JSON lines, Jepsen EDN, r(k,v,s,t) text, dbcop JSON or bincode), or a "
                    + "directory of Cobra client logs (T<n>.log).")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "jsonl, edn, text, dbcop (dbcop's JSON or bincode histories) or cobra (a directory of "
                    + "Cobra's binary client logs) (default: detected).")
    String format;

    @Option(names = {"-l", "--level"}, paramLabel = "LEVEL", split = ",",
            description = "Level(s) to check: read-committed, read-atomic, causal, prefix, snapshot-isolation, "
                    + "serializable, strict-serializable, linearizable (or rc, ra, cc, pc, si, ser, sser, lin). "
                    + "Default: linearizable for single-register histories (Knossos :read/:write/:cas), else "
                    + "strict-serializable if the history has real-time order, else serializable.")
    List<String> levels = new ArrayList<>();

    @CommandLine.Mixin
    OutputOptions output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--max-anomalies", paramLabel = "N", defaultValue = "10",
            description = "Counterexamples listed per anomaly name (default ${DEFAULT-VALUE}); the rest are counted.")
    int maxAnomalies;

    @Option(names = "--search-budget", paramLabel = "STATES", defaultValue = "2000000",
            description = "States a search may visit before answering unknown (default ${DEFAULT-VALUE}).")
    long searchBudget;

    @Option(names = "--solver-timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "Time the general checker's pruning and SAT search may take per level before answering "
                    + "unknown (default ${DEFAULT-VALUE}).")
    long solverTimeout;

    @Option(names = "--max-open-pairs", paramLabel = "N", defaultValue = "50000000",
            description = "Pairs of writes of a key that reachability leaves unordered, at most, before the general "
                    + "checker answers unknown (a memory bound; default ${DEFAULT-VALUE}).")
    long maxOpenPairs;

    @Override
    public Integer call() throws Exception {
        if (format == null && SqlHistoryReader.isSqlHistory(file)) return checkSql();
        HistoryFormat fmt = format == null ? HistoryFormat.detect(file) : parseFormat(format);
        long t0 = System.nanoTime();
        History h = fmt.read(file);
        long parseMs = (System.nanoTime() - t0) / 1_000_000;
        List<IsolationLevel> ls = levels.isEmpty() ? Checker.defaultLevels(h) : parseLevels(levels);
        CheckOptions opts = CheckOptions.DEFAULTS.withAnomaliesPerType(maxAnomalies).withSearchBudget(searchBudget)
                .withSolverTimeoutMillis(solverTimeout * 1000).withMaxOpenPairs(maxOpenPairs);
        Result r = Checker.check(h, ls, opts);
        r.stats().put("parse_ms", parseMs);
        if (!h.sideEvents().isEmpty()) r.stats().put("nemesis_events_not_checked", h.sideEvents().size());
        ResultWriter.report(r, h, fmt, file, output, spec.commandLine().getOut());
        return exitStatus(r);
    }

    /**
     * An {@code isostress-sql} history (docs/sql-history.md): each transaction at its own level, or all at the one
     * {@code --level}; checked by {@link SqlChecker} (CAV 2025 Alg. 3).
     */
    private int checkSql() throws Exception {
        if (levels.size() > 1) {
            throw new Main.UsageException("an SQL history is checked at its transactions' own levels, or at one --level");
        }
        IsolationLevel override = levels.isEmpty() ? null : parseLevels(levels).get(0);
        SqlCheckOptions opts = SqlCheckOptions.DEFAULTS.withLevel(override);
        if (searchBudget != 2_000_000) opts = opts.withMaxStates(searchBudget);
        SqlHistory h = SqlHistoryReader.read(file);
        SqlResult r;
        try {
            r = SqlChecker.check(h, opts);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
        java.io.PrintWriter out = spec.commandLine().getOut();
        if (output != null && output.json) {
            out.println(new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(r.toJson()));
        } else {
            out.print(r.toText());
        }
        out.flush();
        switch (r.verdict()) {
            case VALID: return Main.VALID;
            case INVALID: return Main.INVALID;
            default: return Main.UNKNOWN;
        }
    }

    static int exitStatus(Result r) {
        switch (r.verdict()) {
            case VALID: return Main.VALID;
            case INVALID: return Main.INVALID;
            default: return Main.UNKNOWN;
        }
    }

    static HistoryFormat parseFormat(String name) {
        HistoryFormat f = HistoryFormat.byName(name);
        if (f == null) {
            throw new Main.UsageException("unknown --format '" + name + "': use jsonl, edn, text, dbcop or cobra");
        }
        return f;
    }

    static List<IsolationLevel> parseLevels(List<String> names) {
        List<IsolationLevel> out = new ArrayList<>();
        for (String n : names) {
            IsolationLevel l = IsolationLevel.byName(n);
            if (l == null) {
                throw new Main.UsageException("unknown level '" + n + "'; levels are " + IsolationLevel.names());
            }
            if (!out.contains(l)) out.add(l);
        }
        return out;
    }
}
