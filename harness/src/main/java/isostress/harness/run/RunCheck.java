package isostress.harness.run;

import isostress.checker.CheckInput;
import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Result;
import isostress.checker.sql.SqlHistoryReader;
import isostress.checker.witness.CommitLogNotes;
import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessJoin;
import isostress.harness.config.Campaign;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The end-of-run check of a run's history.jsonl, whatever its kind (a key-value history, or an isostress-sql one for
 * {@code workload.type: sql}): one entry, {@link Checker#check(CheckInput, java.util.List, CheckOptions)}, one
 * {@link Result}, written by {@link RunReport} like every other run's.
 */
final class RunCheck {
    private RunCheck() {
    }

    /**
     * Checks {@code history} at the campaign's levels with its limits; {@code c} null (a killed run whose
     * campaign.yaml no longer loads): the kind's default levels and limits. An SQL history is also checked at each
     * transaction's own level.
     */
    static Result check(Path history, Campaign c) throws IOException {
        return check(history, c, null);
    }

    /**
     * As {@link #check(Path, Campaign)}, joined first with the run's commit log when {@code witness} is not null
     * (a key-value history; as {@code isostress check --witness}): the levels are checked on the history with its
     * {@code info} transactions resolved by the log, and the result carries the witness report.
     */
    static Result check(Path history, Campaign c, Path witness) throws IOException {
        return check(history, c, witness, null);
    }

    /**
     * As {@link #check(Path, Campaign, Path)}, with {@code parsed} (not null) the witness file as the capture read it
     * while writing it, so that the file is not read again.
     */
    static Result check(Path history, Campaign c, Path witness, Witness parsed) throws IOException {
        CheckInput in = SqlHistoryReader.isSqlHistory(history) ? CheckInput.read(history, null, true)
                : CheckInput.read(history, HistoryFormat.JSONL, true);
        if (c == null) return Checker.check(in, Checker.defaultLevels(in), in.defaultOptions());
        if (witness == null || !(in instanceof CheckInput.KeyValue)) return Checker.check(in, c.levels(), options(in, c));
        CheckInput.KeyValue kv = (CheckInput.KeyValue) in;
        WitnessJoin.Joined j = parsed != null ? WitnessJoin.join(kv.history(), parsed, c.maxAnomalies())
                : WitnessJoin.join(kv.history(), witness, c.maxAnomalies());
        // The log's per-key order is the version order (docs/witness.md): no order is searched for.
        CheckInput resolved = new CheckInput.KeyValue(j.resolved(), kv.format(), j.order());
        Result r = Checker.check(resolved, c.levels(), options(resolved, c)).withWitness(j.report());
        return CommitLogNotes.annotate(r, j.resolved(), j.log());
    }

    /** The campaign's check settings as options; {@code check.timeout} is the SQL search's wall clock. */
    static CheckOptions options(CheckInput in, Campaign c) {
        CheckOptions o = in.defaultOptions().withAnomaliesPerType(c.maxAnomalies()).withSearchBudget(c.searchBudget());
        // The loader accepts check.timeout for sql campaigns only (the key-value checkers keep their own default).
        return in instanceof CheckInput.Sql ? o.withSolverTimeoutMillis(c.checkTimeout().toMillis()) : o;
    }
}
