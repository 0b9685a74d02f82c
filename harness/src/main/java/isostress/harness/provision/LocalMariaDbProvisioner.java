package isostress.harness.provision;

import isostress.harness.config.Campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A MariaDB server of the machine's own installation (Debian's {@code mariadb-server}): a fresh data directory, a
 * free port on 127.0.0.1, no configuration files ({@code --no-defaults}) but the campaign's settings, run as user
 * {@code mysql} when isostress runs as root. A user {@code isostress} is created for the clients. Stopped (SIGTERM,
 * then SIGKILL after 30 s) and removed on close; its error log is copied into the run's logs.
 */
final class LocalMariaDbProvisioner implements Provisioner {
    static final String USER = "isostress", PASSWORD = "isostress", DATABASE = "isostress";

    /** The first of {@code candidates} that is executable, or null. */
    static Path find(String... candidates) {
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** Where mariadbd is, or null when MariaDB is not installed. */
    static Path mariadbd() {
        return find("/usr/sbin/mariadbd", "/usr/bin/mariadbd", "/usr/sbin/mysqld", "/usr/local/bin/mariadbd");
    }

    /** True when a local MariaDB server can be started here. */
    public static boolean available() {
        return mariadbd() != null && find("/usr/bin/mariadb-install-db", "/usr/bin/mysql_install_db",
                "/usr/local/bin/mariadb-install-db") != null && find("/usr/bin/mariadb", "/usr/bin/mysql") != null;
    }

    @Override
    public RunningDatabase start(Campaign.Database db, Path logs, int maxClients) throws IOException, InterruptedException {
        Path server = mariadbd();
        Path install = find("/usr/bin/mariadb-install-db", "/usr/bin/mysql_install_db", "/usr/local/bin/mariadb-install-db");
        Path client = find("/usr/bin/mariadb", "/usr/bin/mysql");
        if (server == null || install == null || client == null) {
            throw new IOException("no local MariaDB server: install it (apt-get install -y mariadb-server)");
        }
        Files.createDirectories(logs);
        boolean root = PostgresBinaries.isRoot();
        Path data = Files.createTempDirectory("isostress-mariadb");
        if (root) chownToMysql(data);
        List<String> installCmd = new ArrayList<>(List.of(install.toString(), "--no-defaults", "--datadir=" + data,
                "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) installCmd.add("--user=mysql");
        run(installCmd, logs.resolve("mariadb-install.log"), 120, "mariadb-install-db");

        int port = EmbeddedPostgresProvisioner.freePort();
        Path socket = data.resolve("mysqld.sock");
        List<String> cmd = new ArrayList<>(List.of(server.toString(), "--no-defaults", "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + socket,
                "--pid-file=" + data.resolve("mysqld.pid"), "--log-error=" + data.resolve("error.log"),
                "--max-connections=" + Math.max(151, maxClients + 20), "--innodb-buffer-pool-size=256M"));
        if (root) cmd.add("--user=mysql");
        for (Map.Entry<String, String> e : db.settings().entrySet()) cmd.add("--" + e.getKey() + "=" + e.getValue());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("mariadb.out").toFile())).start();
        Running r = new Running(p, data, logs, port);
        try {
            waitReady(p, client, socket, data);
            sql(client, socket, "CREATE DATABASE IF NOT EXISTS " + DATABASE + "; CREATE USER IF NOT EXISTS '" + USER
                    + "'@'%' IDENTIFIED BY '" + PASSWORD + "'; GRANT ALL ON *.* TO '" + USER + "'@'%';", logs);
        } catch (IOException | InterruptedException | RuntimeException e) {
            r.close();
            throw e;
        }
        return r;
    }

    private static void waitReady(Process p, Path client, Path socket, Path data) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IOException("mariadbd exited with status " + p.exitValue() + ": " + tail(data.resolve("error.log")));
            }
            if (Files.exists(socket)) {
                Process ping = new ProcessBuilder(client.toString(), "--no-defaults", "--socket=" + socket, "-uroot",
                        "-e", "SELECT 1").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (ping.waitFor(10, TimeUnit.SECONDS) && ping.exitValue() == 0) return;
            }
            Thread.sleep(200);
        }
        throw new IOException("mariadbd did not accept connections within 90 s: " + tail(data.resolve("error.log")));
    }

    private static void sql(Path client, Path socket, String statements, Path logs) throws IOException, InterruptedException {
        run(List.of(client.toString(), "--no-defaults", "--socket=" + socket, "-uroot", "-e", statements),
                logs.resolve("mariadb-setup.log"), 30, "mariadb client");
    }

    private static void run(List<String> cmd, Path log, int seconds, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(what + " did not finish within " + seconds + " s (see " + log + ")");
        }
        if (p.exitValue() != 0) {
            throw new IOException(what + " failed with status " + p.exitValue() + ": " + tail(log));
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    private static void chownToMysql(Path dir) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user;
        GroupPrincipal group;
        try {
            user = lookup.lookupPrincipalByName("mysql");
            group = lookup.lookupPrincipalByGroupName("mysql");
        } catch (IOException e) {
            throw new IOException("user mysql not found: MariaDB runs as mysql when isostress runs as root "
                    + "(apt-get install -y mariadb-server creates it)", e);
        }
        PosixFileAttributeView v = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        v.setOwner(user);
        v.setGroup(group);
    }

    private static final class Running implements RunningDatabase {
        private final Process process;
        private final Path data, logs;
        private final int port;
        private boolean closed;

        Running(Process process, Path data, Path logs, int port) {
            this.process = process;
            this.data = data;
            this.logs = logs;
            this.port = port;
        }

        public String jdbcUrl() {
            return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
        }

        public String user() {
            return USER;
        }

        public String password() {
            return PASSWORD;
        }

        public String description() {
            return "local MariaDB (mariadbd pid " + process.pid() + ") on port " + port;
        }

        public long serverPid() {
            return process.isAlive() ? process.pid() : -1;
        }

        public synchronized void close() {
            if (closed) return;
            closed = true;
            try {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            try {
                Path err = data.resolve("error.log");
                if (Files.exists(err)) Files.copy(err, logs.resolve("mariadb-error.log"), StandardCopyOption.REPLACE_EXISTING);
                PostgresBinaries.deleteTree(data);
            } catch (IOException e) {
                System.err.println("isostress: cleaning up MariaDB data directory " + data + ": " + e.getMessage());
            }
        }
    }

    /** For tests: lists data directories left behind (there should be none). */
    static List<Path> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("isostress-mariadb")).toList();
        }
    }
}
