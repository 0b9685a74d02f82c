package isostress.harness.provision;

import isostress.harness.db.DatabaseSpec;

import java.io.IOException;
import java.nio.file.Path;

/** Obtains the database a campaign asks for. One implementation per way (STYLE.md (e)). */
public interface Provisioner {
    /**
     * Starts (or connects to) the database.
     *
     * @param logs where server logs go
     * @param maxClients how many connections the clients will open
     */
    RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException;

    /** True when Debian's MariaDB server is installed, so {@code provision: local} works for MariaDB. */
    static boolean mariaDbInstalled() {
        return LocalMariaDbProvisioner.available();
    }

    /** True when MariaDB, galera-4 and rsync are installed, so {@code provision: local} with {@code nodes: 3} works. */
    static boolean galeraAvailable() {
        return LocalMariaDbProvisioner.galeraAvailable();
    }

    /** The provisioner for {@code db}. */
    static Provisioner of(DatabaseSpec db) {
        switch (db.provision()) {
            case EMBEDDED: return new EmbeddedPostgresProvisioner();
            case LOCAL: return new LocalMariaDbProvisioner();
            case DOCKER: return new DockerProvisioner();
            default: return new ExternalProvisioner();
        }
    }
}
