package isostress.harness.db.postgresql;

import isostress.harness.db.WitnessWrite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One peek at a {@code test_decoding} slot, as both commit-log captures read theirs (a lone server's
 * {@link LogicalDecodingCapture}, a Patroni member's {@link MemberLog}): the committed transactions past a position,
 * each made a witness line, and the last commit read, past which the slot may then advance. Peek, write, advance: the
 * lines are in the file before the slot moves past them.
 *
 * @param rows      the rows the peek returned (fewer than asked for: the log was read to its end)
 * @param commitLsn the last commit read, or null when the rows held none
 * @param lastPos   the highest commit position seen, this peek's and before
 * @param lines     the witness lines of the transactions past the position given that wrote to the workload's tables
 */
record SlotPeek(int rows, String commitLsn, long lastPos, List<String> lines) {
    /** Makes a transaction's witness line. */
    interface Line {
        String of(long pos, String txid, List<WitnessWrite> writes);
    }

    /** Peeks at most {@code batch} rows of {@code slot}, keeping the transactions that commit past {@code lastPos}. */
    static SlotPeek read(Connection c, String slot, int batch, long lastPos, Line line) throws SQLException {
        int rows = 0;
        String commitLsn = null, txid = null;
        List<WitnessWrite> writes = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("SELECT lsn::text, xid::text, data FROM "
                + "pg_logical_slot_peek_changes(?, NULL, ?, 'include-xids', '1', 'skip-empty-xacts', '1')")) {
            p.setString(1, slot);
            p.setInt(2, batch);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    String data = rs.getString(3);
                    if (data.startsWith("BEGIN")) {
                        txid = rs.getString(2);
                        writes.clear();
                    } else if (data.startsWith("COMMIT")) {
                        commitLsn = rs.getString(1);
                        long pos = TestDecodingRows.lsn(commitLsn);
                        // A transaction without writes to the workload's tables tells the join nothing; one at or
                        // before the position was read before (a slot's position reaches disk at checkpoints, so a
                        // crash takes it back).
                        if (pos > lastPos && !writes.isEmpty()) lines.add(line.of(pos, txid, writes));
                        lastPos = Math.max(lastPos, pos);
                        writes.clear();
                    } else {
                        writes.addAll(TestDecodingRows.writes(data));
                    }
                }
            }
        }
        return new SlotPeek(rows, commitLsn, lastPos, lines);
    }

    /** Moves {@code slot} past this peek's last commit (nothing when it read none). */
    void advance(Connection c, String slot) throws SQLException {
        if (commitLsn == null) return;
        try (PreparedStatement p = c.prepareStatement("SELECT pg_replication_slot_advance(?, ?::pg_lsn)")) {
            p.setString(1, slot);
            p.setString(2, commitLsn);
            p.execute();
        }
    }
}
