package isostress.harness.db.mariadb;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.Host;
import isostress.harness.provision.Leftovers;
import isostress.harness.provision.SettingRefusedException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * MariaDB of the machine's own installation (Debian's {@code mariadb-server}): one server, or with {@code nodes: N}
 * a Galera cluster of N (galera-4). Fresh data directories, free ports, no configuration files
 * ({@code --no-defaults}) but the campaign's settings, run as user {@code mysql} when isostress runs as root (as
 * root Galera's state transfer fails). A cluster's nodes listen on 127.0.0.1, .2, .3, ... so a partition can single
 * one out; the first is bootstrapped with a new cluster, the others join one at a time (rsync state transfer) and
 * the cluster is ready when every node says {@code wsrep_local_state_comment = Synced}. A user {@code isostress} is
 * created for the clients. Stopped (SIGTERM, then SIGKILL after 30 s) and removed on close; error logs are copied
 * into the run's logs.
 */
public final class LocalMariaDbProvisioner implements Provisioner {
    static final Path GALERA = Path.of("/usr/lib/galera/libgalera_smm.so");
    static final String USER = "isostress", PASSWORD = "isostress", DATABASE = "isostress";

    /** Where mariadbd is, or null when MariaDB is not installed. */
    static Path mariadbd() {
        return Host.find("/usr/sbin/mariadbd", "/usr/bin/mariadbd", "/usr/sbin/mysqld", "/usr/local/bin/mariadbd");
    }

    /** True when a local MariaDB server can be started here. */
    public static boolean available() {
        try {
            MariaDbTools.find();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** True when a local Galera cluster can be started here. */
    public static boolean galeraAvailable() {
        return available() && Files.exists(GALERA) && Host.find("/usr/bin/rsync") != null;
    }

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        MariaDbTools tools = MariaDbTools.find();
        Files.createDirectories(logs);
        int n = db.nodes();
        if (n > 1 && !galeraAvailable()) {
            throw new IOException("a Galera cluster needs " + GALERA + " and rsync: install them "
                    + "(apt-get install -y galera-4 rsync)");
        }
        Path base = Files.createTempDirectory(Leftovers.prefix("mariadb"));
        boolean root = Host.isRoot();
        if (root) chownToMysql(base);
        List<MariaDbServer> servers = new ArrayList<>();
        Running r = new Running(servers, base, n > 1);
        try {
            int[] client = new int[n], gcomm = new int[n], ist = new int[n], sst = new int[n];
            int[] ports = Host.freePorts(4 * n);
            for (int i = 0; i < n; i++) {
                client[i] = ports[4 * i];
                gcomm[i] = ports[4 * i + 1];
                ist[i] = ports[4 * i + 2];
                sst[i] = ports[4 * i + 3];
            }
            installDataDirectories(tools, base, n, root, logs);
            String peers = IntStream.range(0, n).mapToObj(i -> ip(i) + ":" + gcomm[i]).collect(Collectors.joining(","));
            for (int i = 0; i < n; i++) {
                Path data = base.resolve("n" + (i + 1));
                String ip = n > 1 ? ip(i) : "127.0.0.1";
                List<String> cmd = new ArrayList<>(List.of(tools.server().toString(), "--no-defaults",
                        "--datadir=" + data, "--port=" + client[i], "--bind-address=" + ip,
                        "--socket=" + data.resolve("mysqld.sock"), "--pid-file=" + data.resolve("mysqld.pid"),
                        "--log-error=" + data.resolve("error.log"),
                        "--max-connections=" + Math.max(151, maxClients + 20), "--innodb-buffer-pool-size=128M",
                        // Each node's own id, so each node's binary log (check.witness) names who wrote an event.
                        "--server-id=" + (i + 1)));
                if (root) cmd.add("--user=mysql");
                List<Integer> peerPorts = new ArrayList<>();
                if (n > 1) {
                    // Galera's options (galeracluster.com, "wsrep_provider_options"): group communication, incremental
                    // and snapshot state transfer each on the node's own address and port. Failure detection is
                    // tightened from 5 s / 15 s to 2 s / 5 s (Galera wants install below inactive, keepalive below a
                    // third of suspect): on loopback a silent peer is dead or stopped, and a killed node's old
                    // incarnation must be evicted before its restart can join (the 10 s target).
                    cmd.addAll(List.of("--wsrep-on=ON", "--wsrep-provider=" + GALERA,
                            "--wsrep-cluster-name=isostress", "--wsrep-cluster-address=gcomm://" + peers,
                            "--wsrep-node-name=n" + (i + 1), "--wsrep-node-address=" + ip,
                            "--wsrep-provider-options=gmcast.listen_addr=tcp://" + ip + ":" + gcomm[i]
                                    + ";ist.recv_addr=" + ip + ":" + ist[i] + ";gcache.size=64M"
                                    + ";evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S"
                                    + ";evs.inactive_timeout=PT5S;evs.install_timeout=PT4S",
                            "--wsrep-sst-receive-address=" + ip + ":" + sst[i], "--wsrep-sst-method=rsync",
                            "--binlog-format=ROW", "--default-storage-engine=InnoDB",
                            "--innodb-autoinc-lock-mode=2"));
                    peerPorts.addAll(List.of(gcomm[i], ist[i], sst[i]));
                }
                for (Map.Entry<String, String> e : db.settings().entrySet()) {
                    cmd.add("--" + e.getKey() + "=" + e.getValue());
                }
                String ready = n > 1 ? "SELECT IF(VARIABLE_VALUE = 'Synced', 'ready', VARIABLE_VALUE) FROM "
                        + "information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_LOCAL_STATE_COMMENT'" : null;
                servers.add(new MariaDbServer("n" + (i + 1), ip, client[i], peerPorts, data, logs, cmd, tools, ready));
            }
            for (MariaDbServer srv : servers) srv.cluster(servers);
            long t0 = System.nanoTime();
            MariaDbServer first = servers.get(0);
            first.launch(n > 1 ? List.of("--wsrep-new-cluster") : List.of());
            first.awaitReady(90);
            // The user is created before the others join: the state transfer brings it to them.
            tools.execute(first.socket(), "CREATE DATABASE IF NOT EXISTS " + DATABASE + "; CREATE USER IF NOT EXISTS '"
                    + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'; GRANT ALL ON *.* TO '" + USER + "'@'%';",
                    logs.resolve("mariadb-setup.log"));
            // Joiners one at a time: a donor serves one snapshot transfer at a time.
            for (int i = 1; i < n; i++) {
                servers.get(i).launch(List.of());
                servers.get(i).awaitReady(120);
            }
            r.startupMillis = (System.nanoTime() - t0) / 1_000_000;
        } catch (IOException | InterruptedException | RuntimeException e) {
            // mariadbd exits at once on a setting it does not know or cannot set; say which, in its words (read
            // before close() removes the data directories with the error logs).
            SettingRefusedException refused = null;
            for (MariaDbServer srv : servers) {
                if (refused == null) {
                    refused = SettingRefusedException.find(n > 1 ? "MariaDB Galera node " + srv.name()
                            : "local MariaDB", srv.errorLines(), db.settings().keySet());
                }
            }
            r.close();
            if (refused != null && !(e instanceof InterruptedException)) throw refused;
            throw e;
        }
        return r;
    }

    /**
     * mariadb-install-db once, copied for the other nodes ({@code cp -a} keeps the owner): two installs at once
     * collide on temporary tables, and one after the other they take seconds each.
     */
    private static void installDataDirectories(MariaDbTools tools, Path base, int n, boolean root, Path logs)
            throws IOException, InterruptedException {
        Path first = base.resolve("n1");
        Files.createDirectories(first);
        if (root) chownToMysql(first);
        List<String> installCmd = new ArrayList<>(List.of(tools.install().toString(), "--no-defaults",
                "--datadir=" + first, "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) installCmd.add("--user=mysql");
        run(installCmd, logs.resolve("mariadb-install.log"), 120, "mariadb-install-db");
        for (int i = 1; i < n; i++) {
            run(List.of("cp", "-a", first.toString(), base.resolve("n" + (i + 1)).toString()),
                    logs.resolve("mariadb-install.log"), 60, "copying the data directory");
        }
    }

    /** Node i's loopback address: 127.0.0.1, .2, .3, ... (all of 127/8 is local on Linux). */
    static String ip(int i) {
        return "127.0.0." + (i + 1);
    }

    static void run(List<String> cmd, Path log, int seconds, String what) throws IOException, InterruptedException {
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
        private final List<MariaDbServer> servers;
        private final Path base;
        private final boolean galera;
        long startupMillis;
        private boolean closed;

        Running(List<MariaDbServer> servers, Path base, boolean galera) {
            this.servers = servers;
            this.base = base;
            this.galera = galera;
        }

        public String jdbcUrl() {
            return servers.get(0).url();
        }

        public String user() {
            return USER;
        }

        public String password() {
            return PASSWORD;
        }

        public String description() {
            if (!galera) {
                return "local MariaDB (mariadbd pid " + servers.get(0).pid() + ") on port " + servers.get(0).clientPort();
            }
            StringBuilder sb = new StringBuilder("local MariaDB Galera cluster of " + servers.size() + " nodes (");
            for (int i = 0; i < servers.size(); i++) {
                if (i > 0) sb.append(", ");
                sb.append(servers.get(i).name()).append(' ').append(servers.get(i).host()).append(':')
                  .append(servers.get(i).clientPort());
            }
            return sb.append("), synced in ").append(startupMillis).append(" ms").toString();
        }

        public List<DbNode> nodes() {
            return List.copyOf(servers);
        }

        public synchronized void close() {
            if (closed) return;
            closed = true;
            // Joiners first, the bootstrap node last.
            for (int i = servers.size() - 1; i >= 0; i--) servers.get(i).stop();
            try {
                Leftovers.deleteTree(base);
            } catch (IOException e) {
                System.err.println("isostress: cleaning up MariaDB data directory " + base + ": " + e.getMessage());
            }
        }
    }
}
