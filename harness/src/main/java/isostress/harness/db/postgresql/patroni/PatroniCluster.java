package isostress.harness.db.postgresql.patroni;

import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.Leftovers;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A running Patroni cluster: etcd, the members, and the directory all their data lives in. Clients get one URL for
 * the whole cluster (on the members' client addresses, {@link PatroniMember.Address}), pgjdbc's multi-host form with
 * {@code targetServerType=primary}: the driver tries the members in
 * turn and keeps the connection to the one that is not read-only, so a session whose connection broke in a
 * failover reconnects to the new primary. {@code hostRecheckSeconds=1}: pgjdbc remembers what each host was for
 * that long (10 s by default), and a failover here takes about as long as that.
 */
final class PatroniCluster implements RunningDatabase {
    private final List<PatroniMember> members;
    private final Etcd etcd;
    private final Path base;
    private final String url;
    private final String patroniVersion, pgVersion;
    private final PatroniFailover failover;
    long leaderMillis = -1, streamingMillis = -1;
    private boolean closed;

    /** @param synchronous Patroni's {@code synchronous_mode} is on */
    PatroniCluster(List<PatroniMember> members, Etcd etcd, Path base, String patroniVersion, String pgVersion,
            boolean synchronous) {
        this.members = List.copyOf(members);
        this.etcd = etcd;
        this.base = base;
        this.patroniVersion = patroniVersion;
        this.pgVersion = pgVersion;
        this.url = "jdbc:postgresql://" + members.stream()
                .map(m -> m.address().clientHost() + ":" + m.address().pgPort()).collect(Collectors.joining(","))
                + "/postgres?targetServerType=primary&hostRecheckSeconds=1";
        for (PatroniMember m : members) m.clusterUrl(url);
        this.failover = new PatroniFailover(this, this.members, etcd.clientPort(), synchronous);
    }

    @Override
    public Optional<isostress.harness.db.Failover> failover() {
        return Optional.of(failover);
    }

    @Override
    public String jdbcUrl() {
        return url;
    }

    @Override
    public String user() {
        return PatroniConfig.SUPERUSER;
    }

    @Override
    public String password() {
        return PatroniConfig.PASSWORD;
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("Patroni " + patroniVersion + " cluster of " + members.size()
                + " PostgreSQL " + pgVersion + " members (");
        for (int i = 0; i < members.size(); i++) {
            PatroniMember.Address a = members.get(i).address();
            if (i > 0) sb.append(", ");
            sb.append(a.name()).append(' ').append(a.host()).append(':').append(a.pgPort());
        }
        sb.append("; etcd ").append(Etcd.HOST).append(':').append(etcd.clientPort()).append(')');
        if (leaderMillis >= 0) {
            sb.append(", leader ").append(leader().orElse("?")).append(" elected in ").append(leaderMillis)
              .append(" ms, replicas streaming in ").append(streamingMillis).append(" ms");
        }
        return sb.toString();
    }

    @Override
    public List<DbNode> nodes() {
        return List.copyOf(members);
    }

    /** The cluster as the first member whose REST API answers sees it; empty when none answers. */
    List<PatroniRest.Member> state() {
        for (PatroniMember m : members) {
            try {
                return PatroniRest.cluster(m.address().host(), m.address().restPort());
            } catch (IOException e) {
                // down or paused: ask the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
        return List.of();
    }

    /** The member that answered {@link #leaderQuickly()} last: asked first next time. */
    private volatile int lastAnswered;

    /**
     * Who leads as the first member whose REST API answers within about 500 ms says: a member's name, {@code "none"}
     * while no running member holds the leader key, empty when no member answered. The member that answered last
     * is asked first, so a paused or cut-off one costs one timeout, not one per look.
     */
    Optional<String> leaderQuickly() {
        int n = members.size();
        int first = lastAnswered;
        for (int i = 0; i < n; i++) {
            int at = (first + i) % n;
            PatroniMember m = members.get(at);
            try {
                List<PatroniRest.Member> state = PatroniRest.clusterQuickly(m.address().host(), m.address().restPort());
                lastAnswered = at;
                return Optional.of(PatroniRest.leader(state).map(PatroniRest.Member::name).orElse("none"));
            } catch (IOException e) {
                // down, paused or cut off: ask the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The name of the member that holds the leader key and runs, as Patroni says now; empty during a failover. */
    Optional<String> leader() {
        return PatroniRest.leader(state()).map(PatroniRest.Member::name);
    }

    /**
     * Waits until one member leads and every other streams from it: the cluster as Patroni reports it (every
     * member running, one leader), then PostgreSQL's own view on the leader (one streaming WAL sender per replica),
     * since a replica Patroni calls running may still be replaying its base backup.
     */
    void awaitReady(long t0, int seconds) throws IOException, InterruptedException {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
        String last = "no member's REST API answered";
        while (System.nanoTime() < deadline) {
            for (PatroniMember m : members) {
                if (m.exited().isPresent()) {
                    throw new IOException(m.name() + "'s Patroni exited with status " + m.exited().get()
                            + " while the cluster started (see logs/" + m.name() + "-patroni.log)");
                }
            }
            List<PatroniRest.Member> state = state();
            Optional<PatroniRest.Member> leader = PatroniRest.leader(state);
            if (leader.isPresent()) {
                if (leaderMillis < 0) leaderMillis = (System.nanoTime() - t0) / 1_000_000;
                long running = state.stream().filter(PatroniRest.Member::running).count();
                int streaming = streamingReplicas(leader.get());
                if (state.size() == members.size() && running == members.size()
                        && streaming == members.size() - 1) {
                    streamingMillis = (System.nanoTime() - t0) / 1_000_000;
                    return;
                }
                last = "leader " + leader.get().name() + ", " + running + " of " + members.size()
                        + " members running, " + Math.max(0, streaming) + " replica(s) streaming";
            } else if (!state.isEmpty()) {
                last = "no leader yet: " + state.stream().map(m -> m.name() + " " + m.role() + " " + m.state())
                        .collect(Collectors.joining(", "));
            }
            Thread.sleep(200);
        }
        // The members' last log lines say why (a bootstrap that failed, a port taken, etcd unreachable): the
        // sentence must carry them, since a run directory's logs are not always kept.
        String lastLines = members.stream().map(m -> m.name() + ": " + m.lastLogLine())
                .collect(Collectors.joining("; "));
        throw new IOException("the Patroni cluster was not ready within " + seconds + " s (" + last
                + "; the members' logs in logs/ end with: " + lastLines + ")");
    }

    /** How many WAL senders of {@code leader} stream to a replica, or -1 when it cannot be asked. */
    private static int streamingReplicas(PatroniRest.Member leader) {
        String direct = "jdbc:postgresql://" + leader.host() + ":" + leader.port() + "/postgres?connectTimeout=2";
        try (Connection c = DriverManager.getConnection(direct, PatroniConfig.SUPERUSER, PatroniConfig.PASSWORD);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")) {
            return rs.next() ? rs.getInt(1) : -1;
        } catch (SQLException e) {
            return -1;
        }
    }

    /**
     * Stops every member at once (SIGTERM: Patroni shuts its PostgreSQL down fast), then etcd; whatever still runs
     * from the cluster's directory after 30 s (a postmaster Patroni left behind, a backend) is killed, and the
     * directory removed.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            for (PatroniMember m : members) m.terminate();
            for (PatroniMember m : members) m.awaitExit(30);
            etcd.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Leftovers.killUsers(base);
        try {
            Leftovers.deleteTree(base);
        } catch (IOException e) {
            System.err.println("isostress: cleaning up the Patroni cluster's directory " + base + ": " + e.getMessage());
        }
    }
}
