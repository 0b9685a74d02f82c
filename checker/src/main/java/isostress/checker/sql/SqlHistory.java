package isostress.checker.sql;

import java.util.List;
import java.util.Map;

/**
 * An {@code isostress-sql} history (docs/sql-history.md): a client history in the sense of Bouajjani, Enea and
 * Román-Calvo, CAV 2025, Def. 4 — only returned rows are read-from edges.
 *
 * @param name    campaign name, or null
 * @param tables  table → column names, informational (may be empty)
 * @param init    the initial rows (write id {@code init}); keys not named here are absent initially
 * @param txns    the transactions in file order
 */
public record SqlHistory(String name, Map<String, List<String>> tables, List<InitRow> init, List<SqlTxn> txns) {

    /** The write id of the initial rows. */
    public static final String INIT = "init";

    /** One initial row. */
    public record InitRow(String table, String key, Map<String, Object> value) {}
}
