package isostress.harness.hermitage;

/**
 * One statement of a Hermitage script, run by one session: {@code begin}, {@code commit}, {@code rollback} or SQL on
 * the table {@code test (id int primary key, value int)}.
 *
 * @param session which session runs it (1, 2, 3)
 * @param sql     the statement
 */
public record HermitageStep(int session, String sql) {
    static HermitageStep t(int session, String sql) {
        return new HermitageStep(session, sql);
    }
}
