package isostress.harness.db;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Obtains the database a campaign asks for: one implementation per database and way of obtaining it, given by the
 * database itself ({@link Database#provisioner}). It lives here, beside {@link Database}, rather than in
 * {@code provision}, because a database names its provisioners: {@code provision} (the servers' common parts: the
 * Docker engine, the watchdog, leftovers, signals, external databases) reads {@link DatabaseSpec}, so {@code db}
 * cannot see {@code provision} without a package cycle. The layering is {@code db} (these interfaces), then
 * {@code provision}, then {@code db.<database>} (its adapters and its servers, built on both).
 */
public interface Provisioner {
    /**
     * Starts (or connects to) the database.
     *
     * @param logs where server logs go
     * @param maxClients how many connections the clients will open
     */
    RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException;

    /** The provisioner {@code db}'s database gives for its provision. */
    static Provisioner of(DatabaseSpec db) {
        return db.type().provisioner(db.provision());
    }
}
