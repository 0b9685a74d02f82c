package isostress.generator.sql;

import java.util.List;

/**
 * One transaction of an SQL workload.
 *
 * @param session    its session (0-based)
 * @param index      its position in the session (0-based)
 * @param isolation  the level it asks for, by campaign name ({@code read-committed}, {@code repeatable-read},
 *                   {@code snapshot}, {@code serializable}, {@code read-uncommitted})
 * @param statements 1 or more statements, run in order
 */
public record SqlTxnPlan(int session, int index, String isolation, List<SqlStatement> statements) {
    public SqlTxnPlan {
        statements = List.copyOf(statements);
    }

    /** The write id of statement {@code i}: unique in the run, e.g. {@code s3-t17-2}. */
    public String writeId(int i) {
        return "s" + session + "-t" + index + "-" + i;
    }
}
