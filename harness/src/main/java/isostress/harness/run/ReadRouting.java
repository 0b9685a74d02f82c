package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Replicas;
import isostress.harness.db.TxnClient;

import java.util.List;

/**
 * Read routing over a primary and its read replicas ({@code workload.read-from}): a session's client
 * sends a transaction whose operations are all reads to the session's read node, any other to the primary (node 0;
 * a standby refuses writes). The generator fixed each transaction's operations, so which kind it is is known before
 * it starts. Read nodes are given to sessions round-robin ({@link Replicas.ReadFrom#readNode}); the client names
 * the node each transaction ran on, so the history records it.
 *
 * <p>Such a session holds two connections, and the history records each as a process of its own (the session's
 * process p becomes 2p on the primary and 2p + 1 on its read node). Each is a PostgreSQL session, and PostgreSQL
 * promises nothing about one session's writes being visible to another on a standby: with one process, every read
 * of a lagging standby after the session's own write would be a session-order cycle (G-single-process), true but
 * no bug, and would hide the anomalies among transactions that the replicas are tested for.
 */
final class ReadRouting implements ClientFactory {
    private final ClientFactory clients;
    private final Replicas replicas;

    private ReadRouting(ClientFactory clients, Replicas replicas) {
        this.clients = clients;
        this.replicas = replicas;
    }

    /** {@code clients}, routing reads when the database has replicas to read from. */
    static ClientFactory of(ClientFactory clients, Replicas replicas) {
        return replicas.count() == 0 || replicas.readFrom() == Replicas.ReadFrom.PRIMARY ? clients
                : new ReadRouting(clients, replicas);
    }

    @Override
    public void createSchema(WorkloadType type, long maxKey) throws Exception {
        clients.createSchema(type, maxKey);
    }

    /** {@code node} is the session's write node (the primary). */
    @Override
    public TxnClient open(int session, int node) {
        return new Routed(clients, session, node, replicas.readFrom().readNode(session, replicas.count()));
    }

    @Override
    public void close() {
        clients.close();
    }

    /** True when {@code ops} only read: such a transaction may run on a standby. */
    static boolean readOnly(List<MicroOp> ops) {
        for (MicroOp m : ops) if (m.writes()) return false;
        return true;
    }

    /** One session's clients: one on the primary, one on its read node (opened when first needed). */
    private static final class Routed implements TxnClient {
        private final ClientFactory clients;
        private final int session;
        private final int writeNode;
        private final int readNode;
        private TxnClient writer;
        private TxnClient reader;
        private int last;

        Routed(ClientFactory clients, int session, int writeNode, int readNode) {
            this.clients = clients;
            this.session = session;
            this.writeNode = writeNode;
            this.readNode = readNode;
            this.last = writeNode;
        }

        @Override
        public List<MicroOp> run(List<MicroOp> ops, DatabaseAdapter.CasExpectations cas)
                throws TxnFailure, Unreachable {
            if (reads(ops)) {
                last = readNode;
                if (reader == null) reader = clients.open(session, readNode);
                return reader.run(ops, cas);
            }
            last = writeNode;
            if (writer == null) writer = clients.open(session, writeNode);
            return writer.run(ops, cas);
        }

        @Override
        public long process(long process, List<MicroOp> ops) {
            return 2 * process + (reads(ops) ? 1 : 0);
        }

        private boolean reads(List<MicroOp> ops) {
            return readOnly(ops) && readNode != writeNode;
        }

        @Override
        public String node() {
            return Replicas.nodeName(last);
        }

        @Override
        public void close() {
            if (writer != null) writer.close();
            if (reader != null) reader.close();
        }
    }
}
