package isostress.checker.history;

import java.util.List;
import java.util.Objects;

/**
 * One operation inside a transaction. Keys and values are integers (string and other keys are numbered by {@link KeyDictionary}).
 *
 * <p>A {@code null} read value means "the initial value" in a completed transaction and "not known" in an
 * invocation or in an {@code info} completion whose read was never returned.
 */
public sealed interface MicroOp permits MicroOp.Read, MicroOp.Write, MicroOp.Append, MicroOp.ListRead, MicroOp.Cas,
        MicroOp.Delete {

    /** The key this operation touches. */
    long key();

    /**
     * The Jepsen micro-op function name: {@code r}, {@code w}, {@code append} or {@code cas}; {@code delete} in a
     * commit log only.
     */
    String function();

    /** True for operations that change the key's value. */
    boolean writes();

    /** A register read. {@code value} null: initial value (or unknown, see the interface comment). */
    record Read(long key, Long value) implements MicroOp {
        public String function() { return "r"; }
        public boolean writes() { return false; }
        @Override public String toString() { return "r(" + key + "," + value + ")"; }
    }

    /** A register write of a value never written to this key before. */
    record Write(long key, long value) implements MicroOp {
        public String function() { return "w"; }
        public boolean writes() { return true; }
        @Override public String toString() { return "w(" + key + "," + value + ")"; }
    }

    /** An append of a unique element to the list stored at the key. */
    record Append(long key, long value) implements MicroOp {
        public String function() { return "append"; }
        public boolean writes() { return true; }
        @Override public String toString() { return "append(" + key + "," + value + ")"; }
    }

    /** A read of the whole list at the key; {@code values} null when not known. */
    record ListRead(long key, List<Long> values) implements MicroOp {
        public ListRead {
            values = values == null ? null : List.copyOf(values);
        }
        public String function() { return "r"; }
        public boolean writes() { return false; }
        @Override public String toString() { return "r(" + key + "," + values + ")"; }
    }

    /**
     * Compare-and-set: if the key holds {@code expected}, write {@code newValue}. {@code expected} null means
     * "insert if absent". A committed ({@code ok}) CAS read {@code expected} and wrote {@code newValue}.
     */
    record Cas(long key, Long expected, long newValue) implements MicroOp {
        public String function() { return "cas"; }
        public boolean writes() { return true; }
        @Override public String toString() { return "cas(" + key + "," + expected + "->" + newValue + ")"; }
    }

    /**
     * A deleted row, as a database's commit log holds it (a witness file, docs/witness.md); never in a history: no
     * workload deletes rows, so a delete in the log is someone else's write to the workload's data.
     */
    record Delete(long key) implements MicroOp {
        public String function() { return "delete"; }
        public boolean writes() { return true; }
        @Override public String toString() { return "delete(" + key + ")"; }
    }

    /** Null-safe value equality used by readers and tests. */
    static boolean sameValue(Long a, Long b) {
        return Objects.equals(a, b);
    }
}
