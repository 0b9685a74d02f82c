package isostress.harness.db.postgresql;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creating a logical replication slot on a hot standby (PostgreSQL 16 and later). The standby cannot log the
 * "running transactions" record a slot starts from, so the creation waits until one arrives in the primary's WAL,
 * which the primary logs by itself only every 15 s; {@code pg_log_standby_snapshot()} on the primary logs one now
 * (PostgreSQL docs, "Logical Decoding on Standbys").
 */
final class StandbySlot {
    private static final long WAIT_MS = 60_000;

    private StandbySlot() {
    }

    /** Runs {@code create} on {@code standby}, asking {@code primary} for running-transactions records meanwhile. */
    static void create(Statement standby, String create, Connection primary) throws SQLException, IOException {
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            try {
                standby.execute(create);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.currentTimeMillis() + WAIT_MS;
        try (Statement p = primary.createStatement()) {
            while (true) {
                p.execute("SELECT pg_log_standby_snapshot()");
                try {
                    done.get(200, TimeUnit.MILLISECONDS);
                    return;
                } catch (TimeoutException e) {
                    if (System.currentTimeMillis() > deadline) {
                        standby.cancel();
                        throw new IOException("check.witness: a logical replication slot on the standby was not "
                                + "made within " + WAIT_MS / 1000 + " s (it waits for the primary's WAL to reach it)");
                    }
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IllegalStateException i && i.getCause() instanceof SQLException q) {
                        throw q;
                    }
                    throw new IOException("check.witness: " + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    standby.cancel();
                    Thread.currentThread().interrupt();
                    throw new IOException("check.witness: interrupted while a standby's slot was made", e);
                }
            }
        }
    }
}
