package isostress.harness.sql;

import isostress.generator.sql.SqlWorkload;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of the accounts table as a statement returned it: the user columns (the history's value) and the hidden
 * write-id columns.
 *
 * @param wid     the write id of this version
 * @param prevWid the write id of the version an update overwrote (null when none)
 */
record AcctRow(long id, int grp, int bal, boolean deleted, String wid, String prevWid) {

    static AcctRow of(ResultSet rs) throws SQLException {
        return new AcctRow(rs.getLong("id"), rs.getInt("grp"), rs.getInt("bal"), rs.getBoolean("deleted"),
                rs.getString("wid"), rs.getString("prev_wid"));
    }

    String key() {
        return SqlWorkload.key(id);
    }

    /** The value as the history records it (the user columns), e.g. {@code {id=1, grp=0, bal=100, deleted=false}}. */
    Map<String, Object> value() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("grp", grp);
        m.put("bal", bal);
        m.put("deleted", deleted);
        return m;
    }
}
