package isostress.harness.db;

/** Isolation levels a database can be asked for (SQL names, not what the checker calls them). */
public enum Isolation {
    READ_UNCOMMITTED("read-uncommitted"), READ_COMMITTED("read-committed"), REPEATABLE_READ("repeatable-read"),
    SNAPSHOT("snapshot"), SERIALIZABLE("serializable");

    private final String yamlName;

    Isolation(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
