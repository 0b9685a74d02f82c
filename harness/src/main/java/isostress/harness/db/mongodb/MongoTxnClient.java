package isostress.harness.db.mongodb;

import com.mongodb.MongoException;
import com.mongodb.TransactionOptions;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.client.result.UpdateResult;
import isostress.checker.history.MicroOp;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;
import org.bson.Document;
import org.bson.conversions.Bson;

import java.util.ArrayList;
import java.util.List;

/**
 * A session's MongoDB link: each transaction is one multi-document transaction on a {@link ClientSession}, started,
 * run op by op and committed by hand.
 *
 * <p>Not the driver's {@code withTransaction}: it retries the whole transaction on TransientTransactionError and the
 * commit on UnknownTransactionCommitResult, so an abort would never be seen and an unknown commit would be recorded
 * as whatever the retry said. (The driver's own single retry of a commitTransaction that hit a retryable error
 * stays: the server answers it for the same transaction number, so it cannot commit twice, and when it fails too the
 * error is labelled UnknownTransactionCommitResult.)
 *
 * <p>Micro-ops: a read is a find by {@code _id}; a write {@code $set}s {@code v}; an append {@code $push}es to
 * {@code v}; a list read is a find; a compare-and-set is an update filtered on {@code {_id, v: expected}} (expected:
 * the session's last read of the key), and one that matches nothing aborts the transaction, as a failed CAS does in
 * Jepsen. A key missing from its collection means the schema was not created, which is the harness's fault.
 *
 * <p>After a failure the transaction is aborted (quietly: the server ends an abandoned transaction by itself after
 * transactionLifetimeLimitSeconds anyway) and the session is closed; the next transaction gets a fresh one, so
 * nothing of a session whose link broke is reused.
 */
final class MongoTxnClient implements TxnClient {
    private final MongoClient client;
    private final TransactionOptions options;
    private final MongoCollection<Document> registers;
    private final MongoCollection<Document> lists;
    private ClientSession session;

    MongoTxnClient(MongoClient client, TransactionOptions options) {
        this.client = client;
        this.options = options;
        MongoDatabase db = client.getDatabase(MongoClientFactory.DATABASE);
        this.registers = db.getCollection(MongoClientFactory.REGISTERS);
        this.lists = db.getCollection(MongoClientFactory.LISTS);
    }

    @Override
    public List<MicroOp> run(List<MicroOp> ops, DatabaseAdapter.CasExpectations cas) throws TxnFailure, Unreachable {
        List<MicroOp> done = new ArrayList<>(ops.size());
        boolean committing = false;
        try {
            if (session == null) session = client.startSession(); // no I/O: the server learns of it with the first op
            session.startTransaction(options);
            for (MicroOp op : ops) done.add(apply(op, cas));
            committing = true;
            session.commitTransaction();
            return done;
        } catch (Refused r) {
            abortQuietly();
            throw new TxnFailure(r.failure, r.getMessage(), null, r.code, r);
        } catch (MongoException e) {
            abortQuietly();
            discardSession();
            // Nothing of this transaction went out when its first request found no server: nothing to record as tried.
            if (!committing && MongoOutcomes.unreachable(e, !done.isEmpty())) {
                throw new Unreachable("cannot reach MongoDB: " + e.getMessage(), e);
            }
            Failure f = MongoOutcomes.classify(e, committing);
            throw new TxnFailure(f, e.getMessage(), f.inDoubt() ? done : null, MongoOutcomes.code(e), e);
        } catch (RuntimeException e) {
            // Not the database's answer (driver misuse, a document of the wrong shape): the harness is wrong.
            abortQuietly();
            discardSession();
            Failure f = Failure.of(Failure.Cause.UNEXPECTED, committing);
            throw new TxnFailure(f, e.toString(), f.inDoubt() ? done : null, e.getClass().getSimpleName(), e);
        }
    }

    private MicroOp apply(MicroOp op, DatabaseAdapter.CasExpectations cas) throws Refused {
        long k = op.key();
        Bson id = Filters.eq("_id", k);
        if (op instanceof MicroOp.Read) {
            return new MicroOp.Read(k, asLong(find(registers, id, k), k));
        } else if (op instanceof MicroOp.Write) {
            matchOne(registers.updateOne(session, id, Updates.set("v", ((MicroOp.Write) op).value())), registers, k);
            return op;
        } else if (op instanceof MicroOp.Append) {
            matchOne(lists.updateOne(session, id, Updates.push("v", ((MicroOp.Append) op).value())), lists, k);
            return op;
        } else if (op instanceof MicroOp.ListRead) {
            return new MicroOp.ListRead(k, asList(find(lists, id, k), k));
        } else {
            MicroOp.Cas c = (MicroOp.Cas) op;
            long expected = cas.expected(k);
            UpdateResult r = registers.updateOne(session, Filters.and(id, Filters.eq("v", expected)),
                    Updates.set("v", c.newValue()));
            if (r.getMatchedCount() != 1) {
                throw new Refused(Failure.ABORTED, "compare-and-set of key " + k + " expected " + expected
                        + " and found another value", "cas mismatch");
            }
            return new MicroOp.Cas(k, expected, c.newValue());
        }
    }

    private Object find(MongoCollection<Document> c, Bson id, long k) throws Refused {
        Document d = c.find(session, id).first();
        if (d == null) throw missing(c, k);
        return d.get("v");
    }

    private static void matchOne(UpdateResult r, MongoCollection<Document> c, long k) throws Refused {
        if (r.getMatchedCount() != 1) throw missing(c, k);
    }

    private static Long asLong(Object v, long k) throws Refused {
        if (v instanceof Number) return ((Number) v).longValue();
        throw new Refused(Failure.FATAL, "key " + k + " holds " + v + ", not an integer", "bad document");
    }

    private static List<Long> asList(Object v, long k) throws Refused {
        if (!(v instanceof List)) {
            throw new Refused(Failure.FATAL, "key " + k + " holds " + v + ", not a list", "bad document");
        }
        List<?> raw = (List<?>) v;
        List<Long> out = new ArrayList<>(raw.size());
        for (Object e : raw) out.add(asLong(e, k));
        return out;
    }

    private static Refused missing(MongoCollection<Document> c, long k) {
        return new Refused(Failure.FATAL, "key " + k + " is missing from " + c.getNamespace()
                + " (was the schema created?)", "missing key");
    }

    /** Aborts the open transaction, if any; errors are ignored (the abort is a courtesy, see the class comment). */
    private void abortQuietly() {
        if (session == null || !session.hasActiveTransaction()) return;
        try {
            session.abortTransaction();
        } catch (RuntimeException e) {
            // the server aborts it at transactionLifetimeLimitSeconds
        }
    }

    private void discardSession() {
        if (session == null) return;
        try {
            session.close();
        } catch (RuntimeException e) {
            // already unusable
        }
        session = null;
    }

    @Override
    public void close() {
        abortQuietly();
        discardSession();
    }

    /** The transaction could not go on for a reason the harness decided, not the driver (a CAS that did not match). */
    private static final class Refused extends Exception {
        final Failure failure;
        final String code;

        Refused(Failure failure, String message, String code) {
            super(message, null, false, false);
            this.failure = failure;
            this.code = code;
        }
    }
}
