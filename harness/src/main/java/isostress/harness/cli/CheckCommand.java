package isostress.harness.cli;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.CheckInput;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.WitnessReport;
import isostress.checker.witness.CommitLogNotes;
import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessJoin;
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
            description = "History file (JSON lines, isostress-sql JSON lines, Jepsen EDN, r(k,v,s,t) text, dbcop JSON or bincode, "
                    + "Chronos/TimeKiller JSON), or a directory of Cobra client logs (T<n>.log).")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "jsonl, edn, text, dbcop (dbcop's JSON or bincode histories), cobra (a directory of "
                    + "Cobra's binary client logs) or chronos (Chronos/TimeKiller's JSON, key-value or list) "
                    + "(default: detected).")
    String format;

    @Option(names = {"-l", "--level"}, paramLabel = "LEVEL", split = ",",
            description = "Level(s) to check: read-committed, read-atomic, causal, prefix, "
                    + "parallel-snapshot-isolation, snapshot-isolation, serializable, strict-serializable, "
                    + "linearizable (or rc, ra, cc, pc, psi, si, ser, sser, lin). "
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

    @Option(names = "--search-budget", paramLabel = "STATES",
            description = "States a search may visit before answering unknown (default: 2000000; 5000000 for "
                    + "isostress-sql histories, whose states cost more).")
    Long searchBudget;

    @Option(names = "--solver-timeout", paramLabel = "SECONDS",
            description = "Time a search may take per level before answering unknown: the general checker's pruning "
                    + "and SAT search, or the SQL checker's whole search (default: 300; 60 for isostress-sql).")
    Long solverTimeout;

    @Option(names = "--max-open-pairs", paramLabel = "N",
            description = "Pairs of writes of a key that reachability leaves unordered, at most, before the general "
                    + "checker answers unknown (a memory bound; default 50000000). Rejected for isostress-sql "
                    + "histories, which have no polygraph.")
    Long maxOpenPairs;

    @Option(names = "--witness", paramLabel = "FILE",
            description = "The database's commit log (witness.jsonl, docs/witness.md): the history is joined with it "
                    + "by the values written; acknowledged writes the log lacks, failed transactions it commits and "
                    + "writes no transaction made make the result invalid, and info transactions it shows aborted are "
                    + "failed before the levels are checked. Key-value histories only.")
    Path witness;

    @Option(names = "--witness-order", paramLabel = "BOOL", arity = "1", defaultValue = "true",
            description = "With --witness: take each key's version order from the commit log (the order its committed "
                    + "transactions wrote the key) instead of searching for one, so every level is one acyclicity "
                    + "test and counterexamples cite the log's positions (default: true; false checks the resolved "
                    + "history as without a log).")
    boolean witnessOrder = true;

    @Override
    public Integer call() throws Exception {
        long t0 = System.nanoTime();
        CheckInput in = CheckInput.read(file, format == null ? null : parseFormat(format), false);
        long parseMs = (System.nanoTime() - t0) / 1_000_000;
        WitnessReport report = null;
        Witness log = null;
        if (witness != null) {
            if (!(in instanceof CheckInput.KeyValue)) {
                throw new Main.UsageException("--witness applies to key-value histories; " + file
                        + " is an isostress-sql history");
            }
            CheckInput.KeyValue kv = (CheckInput.KeyValue) in;
            long w0 = System.nanoTime();
            WitnessJoin.Joined j = WitnessJoin.join(kv.history(), witness, maxAnomalies);
            log = j.log();
            report = j.report();
            in = new CheckInput.KeyValue(j.resolved(), kv.format(), witnessOrder ? j.order() : null);
            parseMs += (System.nanoTime() - w0) / 1_000_000;
        }
        List<IsolationLevel> ls = levels.isEmpty() ? Checker.defaultLevels(in) : parseLevels(levels);
        CheckOptions d = in.defaultOptions();
        CheckOptions opts = d.withAnomaliesPerType(maxAnomalies)
                .withSearchBudget(searchBudget != null ? searchBudget : d.searchBudget())
                .withSolverTimeoutMillis(solverTimeout != null ? solverTimeout * 1000 : d.solverTimeoutMillis())
                .withMaxOpenPairs(maxOpenPairs != null ? maxOpenPairs : d.maxOpenPairs());
        Result r;
        try {
            r = Checker.check(in, ls, opts);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage()); // an option or level this history's checker rejects
        }
        if (report != null) {
            r = CommitLogNotes.annotate(r.withWitness(report), ((CheckInput.KeyValue) in).history(), log);
        }
        r.stats().put("parse_ms", parseMs);
        int side = in instanceof CheckInput.KeyValue ? ((CheckInput.KeyValue) in).history().sideEvents().size() : 0;
        if (side > 0) r.stats().put("nemesis_events_not_checked", side);
        report(r, in, spec.commandLine().getOut());
        return exitStatus(r);
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
            throw new Main.UsageException("unknown --format '" + name + "': use jsonl, edn, text, dbcop, cobra or chronos");
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

    /** Writes DIR/results.json and anomalies/ when --out is given, then prints the result as text or JSON. */
    private void report(Result r, CheckInput in, java.io.PrintWriter ps) throws java.io.IOException {
        if (output != null && output.out != null) ResultWriter.write(r, output.out, true);
        if (output != null && output.json) {
            ps.println(isostress.checker.explain.ResultJson.toString(r));
        } else {
            ps.print(ResultWriter.text(r, in, file));
        }
        ps.flush();
    }
}
