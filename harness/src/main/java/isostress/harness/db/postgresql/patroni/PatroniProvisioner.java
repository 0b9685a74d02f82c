package isostress.harness.db.postgresql.patroni;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.Host;
import isostress.harness.provision.Leftovers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code provision: patroni}: PostgreSQL as most production clusters run it, a primary and standbys under Patroni
 * with etcd holding the leader key, all on this machine's installed programs ({@link PatroniTools}). One etcd and
 * {@code nodes} members on loopback (member i on 127.0.0.i, free ports), everything under one temporary directory
 * named for the harness, so that its watchdog stops it all if the harness is killed; run as user postgres when
 * isostress is root. The members race for the leader key, the winner runs initdb and the others clone it with
 * pg_basebackup; the cluster is ready when a leader runs and every replica streams from it (about 4 s and 8 s with
 * the default ttl 10 / loop_wait 2). Logs: {@code etcd.log} and {@code nN-patroni.log} (Patroni's and its
 * PostgreSQL's output) in the run's logs.
 */
public final class PatroniProvisioner implements Provisioner {
    /** The longest the cluster may take to elect a leader and have every replica stream. */
    static final int READY_SECONDS = 120;

    /** True when Patroni, etcd and Debian's PostgreSQL 15 are installed here. */
    public static boolean available() {
        return PatroniTools.available();
    }

    /** What to install for {@link #available()}. */
    public static String install() {
        return PatroniTools.INSTALL;
    }

    /** Why {@code binDir} cannot run Patroni's members, or null. */
    public static String binDirProblem(String binDir) {
        return PatroniTools.binDirProblem(Path.of(binDir));
    }

    /** Why {@code program} cannot be the Patroni program the members run, or null. */
    public static String programProblem(String program) {
        return PatroniTools.programProblem(Path.of(program));
    }

    /** Why {@code key: value} is not a Patroni setting isostress passes on, or null. */
    public static String settingProblem(String key, String value) {
        return PatroniSettings.problem(key, value);
    }

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        PatroniTools tools = PatroniTools.find(db.binDir(), db.patroniProgram());
        Files.createDirectories(logs);
        Path base = Files.createTempDirectory(Leftovers.prefix("patroni"));
        if (Host.isRoot()) chownToPostgres(base);
        List<PatroniMember.Address> addresses = new ArrayList<>();
        int[] ports = Host.freePorts(2 * db.nodes() + 2);
        for (int i = 0; i < db.nodes(); i++) {
            addresses.add(new PatroniMember.Address("n" + (i + 1), "127.0.0." + (i + 1), ports[2 * i],
                    ports[2 * i + 1]));
        }
        Etcd etcd = new Etcd(tools, base.resolve("etcd"), logs.resolve("etcd.log"), ports[2 * db.nodes()],
                ports[2 * db.nodes() + 1],
                addresses.stream().map(PatroniMember.Address::etcdHost).toList());
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("timezone", "UTC"); // as every other PostgreSQL isostress starts
        parameters.put("max_connections", String.valueOf(Math.max(100, maxClients + 20)));
        // Hot keys deadlock often; the 1 s default would stall a session for a second per deadlock (as for the
        // embedded server; a campaign's settings override it).
        parameters.put("deadlock_timeout", "20ms");
        // pg_rewind needs hint bits WAL-logged (or data checksums) to rewind a failed primary.
        parameters.put("wal_log_hints", "on");
        parameters.putAll(db.settings());
        Map<String, String> dynamic = PatroniSettings.effective(db.patroni());
        List<PatroniMember> members = new ArrayList<>();
        for (PatroniMember.Address a : addresses) {
            Path dir = base.resolve(a.name());
            Files.createDirectories(dir);
            Path config = base.resolve(a.name() + ".yml");
            PatroniConfig.write(PatroniConfig.of(a, dir, tools, etcd.clientPort(), dynamic, parameters), config);
            members.add(new PatroniMember(a, dir, config, logs.resolve(a.name() + "-patroni.log"), tools));
        }
        if (Host.isRoot()) {
            try (var files = Files.walk(base)) {
                for (Path p : (Iterable<Path>) files::iterator) chownToPostgres(p);
            }
        }
        PatroniCluster cluster = new PatroniCluster(members, etcd, base, tools.patroniVersion(), tools.pgVersion(),
                "true".equals(dynamic.get("synchronous_mode")));
        try {
            etcd.start(30);
            long t0 = System.nanoTime();
            for (PatroniMember m : members) m.launch();
            cluster.awaitReady(t0, READY_SECONDS);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private static void chownToPostgres(Path p) throws IOException {
        UserPrincipalLookupService lookup = p.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView v = Files.getFileAttributeView(p, PosixFileAttributeView.class);
        try {
            v.setOwner(lookup.lookupPrincipalByName("postgres"));
            v.setGroup(lookup.lookupPrincipalByGroupName("postgres"));
        } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
            throw new IOException("user postgres not found: Patroni and PostgreSQL refuse to run as root, and "
                    + "isostress runs them as postgres (" + PatroniTools.INSTALL + " creates it)", e);
        }
    }
}
