package isostress.generator.workload;

import java.util.Locale;

/** The kinds of workload a campaign can run. */
public enum WorkloadType {
    /** MTC's mini-transactions: at most four read-modify-write operations on at most two keys. */
    MINI("mini"),
    /** General transactions on registers: reads, blind writes, read-modify-writes. */
    RW_REGISTER("rw-register"),
    /** Appends of unique elements to lists, and list reads (Elle's workload). */
    LIST_APPEND("list-append"),
    /** Lightweight transactions: single reads and compare-and-sets on one key. */
    CAS("cas"),
    /** SQL transactions with predicates on an accounts table, each at its own isolation level
     * ({@code isostress.generator.sql}). */
    SQL("sql");

    private final String yamlName;

    WorkloadType(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }

    /** The type named {@code name}, or null. */
    public static WorkloadType byName(String name) {
        for (WorkloadType t : values()) if (t.yamlName.equals(name.toLowerCase(Locale.ROOT))) return t;
        return null;
    }
}
