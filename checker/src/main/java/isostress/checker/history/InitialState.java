package isostress.checker.history;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The value every key holds before the first transaction: the state written by the implicit initial transaction
 * (the paper's ⊥T, MTC §II-D; Biswas &amp; Enea §2.1). A read of a key's initial value reads from ⊥T.
 *
 * @param defaultValue the initial value of every key not listed in {@code values}; null means "absent"
 * @param values       explicit initial values per key (from an explicit initial transaction in the input)
 */
public record InitialState(Long defaultValue, Map<Long, Long> values) {

    /** Every key starts absent ({@code null}): the JSONL and EDN default. */
    public static final InitialState ABSENT = new InitialState(null, Map.of());

    public InitialState {
        values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /** Every key starts at {@code value}. */
    public static InitialState allKeys(Long value) {
        return new InitialState(value, Map.of());
    }

    /** The initial value of {@code key}, null when absent. */
    public Long valueOf(long key) {
        Long v = values.get(key);
        return v != null ? v : defaultValue;
    }

    /** True when {@code value} (null = absent) is the initial value of {@code key}. */
    public boolean isInitial(long key, Long value) {
        return Objects.equals(valueOf(key), value);
    }

    /** True when {@code value} is the initial value of {@code key}; allocation-free for the common states. */
    public boolean isInitial(long key, long value) {
        if (values.isEmpty()) return defaultValue != null && defaultValue == value;
        return isInitial(key, Long.valueOf(value));
    }

    /** True when {@code key} starts absent (null). */
    public boolean isInitialNull(long key) {
        if (values.isEmpty()) return defaultValue == null;
        return valueOf(key) == null;
    }

    /** True when this is the plain "every key absent" state. */
    public boolean isAbsent() {
        return defaultValue == null && values.isEmpty();
    }
}
