package isostress.harness.db.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCredential;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.TransactionOptions;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.InsertManyOptions;
import isostress.generator.workload.WorkloadType;
import com.mongodb.MongoException;
import isostress.harness.db.CannotConnectException;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.TxnClient;
import org.bson.Document;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * MongoDB clients (the synchronous Java driver): one {@link MongoClient}, with its own connection pool, per node URI;
 * each session a {@link MongoTxnClient} on its node's client. For a replica set the URI normally names the set
 * ({@code ?replicaSet=rs0}) and the driver sends every transaction to whichever member is primary.
 *
 * <p>Data: database {@value #DATABASE}; registers in collection {@value #REGISTERS} as {@code {_id: key, v: long}},
 * lists in {@value #LISTS} as {@code {_id: key, v: [long, ...]}}. Every key is present from the start, at
 * {@link DatabaseAdapter#INITIAL} or the empty list, so a read always finds a document and the history's initial
 * value is what the database holds.
 *
 * <p>Timeouts: the campaign's client timeout bounds connecting, server selection, waiting for a pooled connection and
 * each socket read, so a paused or cut-off server ends a transaction with an error instead of hanging its session.
 * They override any the URI sets. The server-side limits of a commit (maxCommitTimeMS and the majority write
 * concern's wtimeout) are set a little shorter, so a slow commit is answered by the server with a labelled error
 * while the link is still good, rather than by a socket timeout that also kills the connection. The driver's
 * client-side operation timeout ({@code timeoutMS}, an alpha API in driver 5.x) is not used: it turns every timeout
 * into one exception type and would hide whether a request was ever sent.
 */
public final class MongoClientFactory implements ClientFactory {
    /** The database holding the workload's collections. */
    public static final String DATABASE = "isostress";
    /** Registers: {@code {_id: key, v: long}}. */
    public static final String REGISTERS = "registers";
    /** Lists: {@code {_id: key, v: [long, ...]}}. */
    public static final String LISTS = "lists";

    /** Documents per insertMany in createSchema (the driver splits by message size too). */
    private static final int INSERT_BATCH = 10_000;
    private static final Pattern AUTH_SOURCE = Pattern.compile("[?&]authSource=([^&]*)");

    private final List<MongoClient> clients = new ArrayList<>();
    private final TransactionOptions txnOptions;

    /**
     * Builds the clients; none connects yet (the driver discovers its servers in the background), so a node that is
     * down does not stop the factory from being built: its sessions find out per transaction.
     *
     * @param uris     one {@code mongodb://} or {@code mongodb+srv://} URI per node, in node order; at least one
     * @param user     the user, or null when the URI carries credentials or none are needed
     * @param password the password, or null
     * @param timeout  the longest a connection attempt, server selection or socket read may take
     */
    public MongoClientFactory(List<String> uris, String user, String password, Duration timeout) {
        if (uris.isEmpty()) throw new IllegalArgumentException("no MongoDB URI");
        this.txnOptions = transactionOptions(timeout);
        try {
            for (String uri : uris) clients.add(MongoClients.create(settings(uri, user, password, timeout)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Pings the server(s) behind {@code uri} once, with {@code timeout} as the server selection and connect timeout,
     * so that a closed port, an unknown host or a wrong password stops the run in seconds with the reason rather
     * than when the first transaction gives up.
     *
     * @throws CannotConnectException why not, in one sentence
     */
    public static void check(String uri, String user, String password, Duration timeout) throws CannotConnectException {
        try (MongoClient c = MongoClients.create(settings(uri, user, password, timeout))) {
            c.getDatabase("admin").runCommand(new Document("ping", 1));
        } catch (MongoException e) {
            throw new CannotConnectException(MongoConnectErrors.explain(uri, user, timeout, e), e);
        }
    }

    /**
     * Drops the collection for {@code type} and inserts keys {@code 0..maxKey} with majority write concern, so that
     * the snapshot of the first transaction (majority-committed data) already holds every key.
     */
    @Override
    public void createSchema(WorkloadType type, long maxKey) {
        boolean lists = type == WorkloadType.LIST_APPEND;
        MongoCollection<Document> c = clients.get(0).getDatabase(DATABASE)
                .getCollection(lists ? LISTS : REGISTERS)
                .withWriteConcern(WriteConcern.MAJORITY);
        c.drop();
        InsertManyOptions unordered = new InsertManyOptions().ordered(false);
        List<Document> batch = new ArrayList<>(INSERT_BATCH);
        for (long k = 0; k <= maxKey; k++) {
            batch.add(new Document("_id", k).append("v", lists ? List.of() : DatabaseAdapter.INITIAL));
            if (batch.size() == INSERT_BATCH || k == maxKey) {
                c.insertMany(batch, unordered);
                batch = new ArrayList<>(INSERT_BATCH);
            }
        }
    }

    @Override
    public TxnClient open(int session, int node) {
        return new MongoTxnClient(clients.get(node), txnOptions);
    }

    @Override
    public void close() {
        for (MongoClient c : clients) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // closing is best effort: the process is about to report and exit
            }
        }
        clients.clear();
    }

    /**
     * Snapshot read concern (the transaction reads one majority-committed snapshot), majority write concern (a commit
     * acknowledged is durable across failover) and the primary: MongoDB's snapshot isolation, whatever the campaign
     * called it.
     */
    static TransactionOptions transactionOptions(Duration timeout) {
        long serverMs = serverLimitMillis(timeout);
        return TransactionOptions.builder()
                .readConcern(ReadConcern.SNAPSHOT)
                .writeConcern(WriteConcern.MAJORITY.withWTimeout(serverMs, MILLISECONDS))
                .readPreference(ReadPreference.primary())
                .maxCommitTime(serverMs, MILLISECONDS)
                .build();
    }

    static MongoClientSettings settings(String uri, String user, String password, Duration timeout) {
        ConnectionString cs = new ConnectionString(uri);
        long ms = clientLimitMillis(timeout);
        MongoClientSettings.Builder b = MongoClientSettings.builder()
                .applyConnectionString(cs)
                .applicationName("isostress")
                .readPreference(ReadPreference.primary())
                .writeConcern(WriteConcern.MAJORITY)
                .applyToSocketSettings(s -> s.connectTimeout(ms, MILLISECONDS).readTimeout(ms, MILLISECONDS))
                .applyToClusterSettings(c -> c.serverSelectionTimeout(ms, MILLISECONDS))
                .applyToConnectionPoolSettings(p -> p.maxWaitTime(ms, MILLISECONDS));
        if (user != null) {
            char[] pw = password == null ? new char[0] : password.toCharArray();
            b.credential(MongoCredential.createCredential(user, authSource(cs), pw));
        }
        return b.build();
    }

    /** The client-side limit: the campaign's timeout, at least 250 ms (less is spent on the round trip alone). */
    static long clientLimitMillis(Duration timeout) {
        return Math.min(Integer.MAX_VALUE, Math.max(250, timeout.toMillis()));
    }

    /** The server-side commit limits: three quarters of the client's, so the server answers first. */
    static long serverLimitMillis(Duration timeout) {
        return Math.max(1, clientLimitMillis(timeout) * 3 / 4);
    }

    /**
     * Where the user is defined: the URI's {@code authSource}, else its database path, else {@code admin} (MongoDB's
     * own default order for connection strings).
     */
    static String authSource(ConnectionString cs) {
        Matcher m = AUTH_SOURCE.matcher(cs.getConnectionString());
        if (m.find() && !m.group(1).isEmpty()) return URLDecoder.decode(m.group(1), StandardCharsets.UTF_8);
        String db = cs.getDatabase();
        return db == null || db.isEmpty() ? "admin" : db;
    }
}
