package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.model.VersionOrder;
import isostress.checker.history.FormatDetection;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.InputException;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlHistoryReader;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What {@link Checker#check(CheckInput, java.util.List, CheckOptions)} checks: a key-value history (mini-transaction,
 * rw-register, list-append, CAS — every {@link HistoryFormat} reads into one) or an {@code isostress-sql} history
 * (docs/sql-history.md). A closed set: each kind has its checker, and both answer the same {@code Result}.
 */
public sealed interface CheckInput permits CheckInput.KeyValue, CheckInput.Sql {

    /** The format's name, for people ({@code jsonl}, {@code isostress-sql}, ...). */
    String formatName();

    /** Transactions in the history. */
    int size();

    /** Whether the history has real-time order (event indices are shown only then). */
    boolean realTime();

    /** The limits this kind of history is checked with when the user sets none. */
    CheckOptions defaultOptions();

    /**
     * A key-value history.
     *
     * @param format       how it was read, or null (built in memory)
     * @param versionOrder each key's version order from the database's commit log ({@code WitnessJoin}), or null:
     *                     rw-register and list-append histories are then checked with that order instead of
     *                     searching for one (docs/witness.md)
     */
    record KeyValue(History history, HistoryFormat format, VersionOrder versionOrder) implements CheckInput {
        /** A history checked without a commit log's order. */
        public KeyValue(History history, HistoryFormat format) {
            this(history, format, null);
        }

        public String formatName() {
            return format == null ? "history" : format.cliName();
        }

        public int size() {
            return history.size();
        }

        public boolean realTime() {
            return history.realTime();
        }

        public CheckOptions defaultOptions() {
            return CheckOptions.DEFAULTS;
        }
    }

    /**
     * An SQL history, each transaction with its own level.
     *
     * @param ownLevels check at each transaction's own level even when levels are asked too (a campaign checks both;
     *                  {@code isostress check --level L} checks only L)
     */
    record Sql(SqlHistory history, boolean ownLevels) implements CheckInput {
        /** Its search is costlier per state than the key-value prefix search's, and its budget was sized for it. */
        static final CheckOptions DEFAULTS = CheckOptions.DEFAULTS.withSearchBudget(5_000_000)
                .withSolverTimeoutMillis(60_000);

        public String formatName() {
            return "isostress-sql";
        }

        public int size() {
            return history.txns().size();
        }

        public boolean realTime() {
            return false;
        }

        public CheckOptions defaultOptions() {
            return DEFAULTS;
        }
    }

    /**
     * Reads {@code file}: an {@code isostress-sql} history when {@code format} is null and its header says so, else
     * a key-value history in {@code format} (null: detected).
     *
     * @param ownLevels for SQL histories, see {@link Sql#ownLevels()}
     * @throws isostress.checker.history.InputException for unreadable or malformed input (file and line named)
     */
    static CheckInput read(Path file, HistoryFormat format, boolean ownLevels) throws IOException {
        if (format == null && SqlHistoryReader.isSqlHistory(file)) {
            return new Sql(SqlHistoryReader.read(file), ownLevels);
        }
        if (format != null) return new KeyValue(format.read(file), format);
        FormatDetection d = FormatDetection.of(file);
        try {
            return new KeyValue(d.format().read(file), d.format());
        } catch (InputException e) {
            throw d.explain(e); // a file taken for the wrong format says what it was taken for
        }
    }
}
