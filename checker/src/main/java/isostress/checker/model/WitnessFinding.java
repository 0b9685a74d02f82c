package isostress.checker.model;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;

import java.util.List;
import java.util.Map;

/**
 * A disagreement between a history and the database's commit log (docs/witness.md): the client was told one thing,
 * the log says another. Not an isolation anomaly (no level allows or forbids it: the history itself is wrong), so it
 * is kept apart from {@link Anomaly} and makes the whole result invalid ({@link Result#verdict()}).
 *
 * @param kind     what disagrees
 * @param txn      the history's transaction; null for {@link Kind#UNRECORDED_WRITE}
 * @param log      the log transactions that hold its writes (for an unrecorded write, the one holding it), in file
 *                 order
 * @param writes   the writes the finding is about: for a lost write or split commit, the transaction's writes the log
 *                 lacks (empty when all are there, in pieces); for a failed-but-committed transaction, those the log
 *                 holds; for an unrecorded write, the log's writes no transaction made
 * @param keyNames how the history spells its non-integer keys, by id
 */
public record WitnessFinding(Kind kind, Txn txn, List<WitnessTxn> log, List<MicroOp> writes,
                             Map<Long, String> keyNames) {

    public WitnessFinding {
        log = List.copyOf(log);
        writes = List.copyOf(writes);
        keyNames = keyNames == null ? Map.of() : Map.copyOf(keyNames);
    }

    /** The kinds, with their names in results.json and in text. */
    public enum Kind {
        /** An {@code ok} transaction none (or only some) of whose writes the log holds: acknowledged, not committed. */
        LOST_WRITE("lost-write"),
        /**
         * An {@code ok} or {@code info} transaction all of whose writes the log holds, but in several log transactions:
         * committed, but not atomically.
         */
        SPLIT_COMMIT("split-commit"),
        /** A {@code fail} transaction some of whose writes the log holds: reported aborted, committed. */
        FAILED_BUT_COMMITTED("failed-but-committed"),
        /** A write in the log that no transaction of the history made. */
        UNRECORDED_WRITE("unrecorded-write");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    /** The kind's name, e.g. {@code lost-write}. */
    public String name() {
        return kind.jsonName();
    }

    /** How key {@code id} is spelled in the input. */
    public String keyName(long id) {
        String n = keyNames.get(id);
        return n != null ? n : Long.toString(id);
    }
}
