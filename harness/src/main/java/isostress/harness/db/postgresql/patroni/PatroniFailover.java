package isostress.harness.db.postgresql.patroni;

import isostress.harness.db.DbNode;
import isostress.harness.db.Failover;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the role faults act through on a Patroni cluster: the leader as Patroni's REST API reports it, the
 * postmaster and Patroni of a member separately, and a switchover by {@code POST /switchover} to the leader.
 */
final class PatroniFailover implements Failover {
    private final PatroniCluster cluster;
    private final List<PatroniMember> members;

    private final int etcdPort;
    /** Patroni's {@code synchronous_mode}: a switchover then promotes the synchronous standby only. */
    private final boolean synchronous;

    PatroniFailover(PatroniCluster cluster, List<PatroniMember> members, int etcdPort, boolean synchronous) {
        this.etcdPort = etcdPort;
        this.synchronous = synchronous;
        this.cluster = cluster;
        this.members = List.copyOf(members);
    }

    @Override
    public Optional<DbNode> primary() {
        Optional<String> leader = cluster.leader();
        if (leader.isEmpty()) return Optional.empty();
        return members.stream().filter(m -> m.name().equals(leader.get())).map(m -> (DbNode) m).findFirst();
    }

    @Override
    public Optional<String> leaderName() {
        return cluster.leaderQuickly();
    }

    @Override
    public void killServer(DbNode member) throws IOException {
        member(member).killPostmaster();
    }

    @Override
    public void killManager(DbNode member) throws IOException {
        member(member).killPatroni();
    }

    @Override
    public void awaitRunning(DbNode member, Duration wait) throws IOException, InterruptedException {
        member(member).awaitRunning((int) Math.max(1, wait.toSeconds()));
    }

    /**
     * Its link to etcd (its own address of etcd's), and what the other members send it: replication and pg_rewind on
     * its members' address, REST calls. What it sends them cannot be told from anyone else's traffic on loopback
     * (all of it leaves from 127.0.0.1), so a replica cut off this way still streams from the primary; a primary
     * cut off loses the leader key and its replicas, which is what a partition of it is about.
     */
    @Override
    public List<List<String>> links(DbNode member) throws IOException {
        PatroniMember.Address a = member(member).address();
        return List.of(
                List.of("-d", a.etcdHost(), "--dport", Integer.toString(etcdPort)),
                List.of("-d", a.host(), "--dport", Integer.toString(a.pgPort())),
                List.of("-d", a.host(), "--dport", Integer.toString(a.restPort())));
    }

    @Override
    public void switchover(DbNode primary) throws IOException, InterruptedException {
        PatroniMember.Address a = member(primary).address();
        PatroniRest.switchover(a.host(), a.restPort(), a.name());
    }

    /**
     * Patroni refuses a switchover with 412 "can not find sync_standby" while synchronous mode has no synchronous
     * standby yet (after a failover or a switchover, until the new primary names one: measured here, a switchover
     * every 5 s had half of them refused so), and with no candidate when no replica runs.
     */
    @Override
    public boolean awaitSwitchoverCandidate(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            List<PatroniRest.Member> state = cluster.state();
            boolean candidate = state.stream().anyMatch(m -> !m.leader() && m.running()
                    && (!synchronous || m.role().equals("sync_standby")));
            if (candidate && PatroniRest.leader(state).isPresent()) return true;
            if (System.nanoTime() > deadline) return false;
            Thread.sleep(200);
        }
    }

    private PatroniMember member(DbNode node) throws IOException {
        for (PatroniMember m : members) if (m == node || m.name().equals(node.name())) return m;
        throw new IOException(node.name() + " is not a member of this Patroni cluster");
    }
}
