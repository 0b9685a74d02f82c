package isostress.harness.db.mariadb;

import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.RunningDatabase;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * MariaDB through MariaDB Connector/J ({@code org.mariadb.jdbc:mariadb-java-client}, LGPL-2.1), MariaDB's own driver:
 * it knows MariaDB's and Galera's error codes. The machine's mariadbd by default ({@code provision: local}), one
 * server or a Galera cluster.
 */
public final class MariaDb extends InnoDbDatabase {
    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String product() {
        return "MariaDB";
    }

    @Override
    public String driverClass() {
        return "org.mariadb.jdbc.Driver";
    }

    /** Connector/J 3 takes jdbc:mysql: only with permitMysqlScheme; such URLs are rewritten to jdbc:mariadb:. */
    @Override
    protected List<String> schemes() {
        return List.of("jdbc:mariadb:", "jdbc:mysql:");
    }

    /** The binary log, read as a replica reads it ({@link BinlogCapture}). */
    @Override
    public boolean capturesCommitLog() {
        return true;
    }

    @Override
    public Map<String, String> captureSettings() {
        return BinlogCapture.SETTINGS;
    }

    @Override
    public Optional<CommitLogCapture> capture(RunningDatabase db, Path witness) throws IOException, InterruptedException {
        return Optional.of(BinlogCapture.start(db, witness));
    }

    @Override
    public DatabaseAdapter adapter(boolean upsert, Duration opPause, int tables) {
        return new MariaDbAdapter(upsert, opPause, tables);
    }
}
