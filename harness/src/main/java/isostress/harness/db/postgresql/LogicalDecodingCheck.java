package isostress.harness.db.postgresql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What a PostgreSQL server must allow before a run's commit log can be read through logical decoding. */
final class LogicalDecodingCheck {
    private LogicalDecodingCheck() {
    }

    /** Why the server cannot decode its log for {@code user}, or null. */
    static String problem(Statement s, String user) throws SQLException {
        String level;
        try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
            rs.next();
            level = rs.getString(1);
        }
        if (!level.equals("logical")) {
            return "check.witness needs wal_level = logical (logical decoding of the commit log) and the server has "
                    + "wal_level = " + level + ": set it in postgresql.conf and restart the server, or set "
                    + "check.witness: false";
        }
        try (ResultSet rs = s.executeQuery("SELECT rolsuper OR rolreplication FROM pg_roles "
                + "WHERE rolname = current_user")) {
            if (rs.next() && !rs.getBoolean(1)) {
                return "check.witness needs a user with the REPLICATION privilege to create a logical replication "
                        + "slot, and " + (user == null ? "the user" : "user " + user) + " lacks it: ALTER ROLE "
                        + (user == null ? "<user>" : user) + " REPLICATION, or set check.witness: false";
            }
        }
        return null;
    }

    /**
     * True when the user may call {@code pg_log_standby_snapshot()} (PostgreSQL 16 and later; superusers, and those
     * granted it). Asked rather than tried: an error in the session would drop a temporary slot with it (PostgreSQL
     * cleans up a session's temporary slots on error).
     */
    static boolean canLogSnapshots(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 "
                + "THEN has_function_privilege('pg_log_standby_snapshot()', 'EXECUTE') ELSE false END")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
