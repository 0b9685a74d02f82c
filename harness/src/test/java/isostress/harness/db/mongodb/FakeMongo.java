package isostress.harness.db.mongodb;

import com.mongodb.MongoNamespace;
import com.mongodb.client.ClientSession;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.result.UpdateResult;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.conversions.Bson;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough of the driver's client, session and collection interfaces (as {@link Proxy}s) to drive
 * {@link MongoTxnClient} without a server: documents in maps, writes applied at once (no isolation: this is for the
 * client's control flow, not for MongoDB's semantics), and scripted failures per call. It counts the calls whose
 * number matters: commits (never retried by us), aborts (after every failure before commit), sessions.
 */
final class FakeMongo {
    /** Collection name → key → field {@code v}. */
    final Map<String, Map<Long, Object>> data = new HashMap<>();
    /** Call name ({@code find}, {@code updateOne}, {@code commitTransaction}) → failures to throw, in order. */
    private final Map<String, Deque<RuntimeException>> failures = new HashMap<>();
    int commits, aborts, sessionsStarted, sessionsClosed;
    /** Whether a transaction is open (the driver's state IN). */
    private boolean inTxn;

    FakeMongo() {
        data.put(MongoClientFactory.REGISTERS, new HashMap<>());
        data.put(MongoClientFactory.LISTS, new HashMap<>());
    }

    /** The next call named {@code call} throws {@code e}. */
    FakeMongo failNext(String call, RuntimeException e) {
        failures.computeIfAbsent(call, c -> new ArrayDeque<>()).add(e);
        return this;
    }

    MongoClient client() {
        return proxy(MongoClient.class, (p, m, a) -> {
            switch (m.getName()) {
                case "getDatabase": return database((String) a[0]);
                case "startSession": sessionsStarted++; return session();
                default: throw new UnsupportedOperationException(m.getName());
            }
        });
    }

    private MongoDatabase database(String name) {
        return proxy(MongoDatabase.class, (p, m, a) -> {
            if (m.getName().equals("getCollection") && a.length == 1) return collection(name, (String) a[0]);
            throw new UnsupportedOperationException(m.getName());
        });
    }

    private ClientSession session() {
        return proxy(ClientSession.class, (p, m, a) -> {
            switch (m.getName()) {
                case "startTransaction":
                    if (inTxn) throw new IllegalStateException("Transaction already in progress");
                    inTxn = true;
                    return null;
                case "commitTransaction":
                    if (!inTxn) throw new IllegalStateException("There is no transaction started");
                    commits++;
                    inTxn = false; // the driver's state is COMMITTED whatever the outcome: abort is illegal now
                    maybeFail("commitTransaction");
                    return null;
                case "abortTransaction":
                    if (!inTxn) throw new IllegalStateException("Cannot call abortTransaction now");
                    aborts++;
                    inTxn = false;
                    return null;
                case "hasActiveTransaction": return inTxn;
                case "close":
                    sessionsClosed++;
                    if (inTxn) {
                        aborts++;
                        inTxn = false;
                    }
                    return null;
                default: throw new UnsupportedOperationException(m.getName());
            }
        });
    }

    @SuppressWarnings("unchecked")
    private MongoCollection<Document> collection(String db, String name) {
        return proxy(MongoCollection.class, (p, m, a) -> {
            switch (m.getName()) {
                case "getNamespace": return new MongoNamespace(db, name);
                case "find": {
                    requireSession(a);
                    maybeFail("find");
                    BsonDocument f = ((Bson) a[1]).toBsonDocument();
                    long k = f.getNumber("_id").longValue();
                    Object v = data.get(name).get(k);
                    Document d = v == null ? null : new Document("_id", k).append("v", copy(v));
                    return proxy(FindIterable.class, (p2, m2, a2) -> {
                        if (m2.getName().equals("first")) return d;
                        throw new UnsupportedOperationException(m2.getName());
                    });
                }
                case "updateOne": {
                    requireSession(a);
                    maybeFail("updateOne");
                    return update(data.get(name), ((Bson) a[1]).toBsonDocument(), ((Bson) a[2]).toBsonDocument());
                }
                default: throw new UnsupportedOperationException(m.getName());
            }
        });
    }

    /** Applies {@code {$set: {v: x}}} or {@code {$push: {v: x}}} to the document {@code filter} matches. */
    private static UpdateResult update(Map<Long, Object> coll, BsonDocument filter, BsonDocument update) {
        List<BsonDocument> conds = new ArrayList<>();
        if (filter.containsKey("$and")) {
            for (BsonValue c : filter.getArray("$and")) conds.add(c.asDocument());
        } else {
            conds.add(filter);
        }
        Long key = null;
        Long expected = null;
        for (BsonDocument c : conds) {
            if (c.containsKey("_id")) key = c.getNumber("_id").longValue();
            if (c.containsKey("v")) expected = c.getNumber("v").longValue();
        }
        if (key == null || !coll.containsKey(key)) return UpdateResult.acknowledged(0, 0L, null);
        Object cur = coll.get(key);
        if (expected != null && !(cur instanceof Long && ((Long) cur).longValue() == expected)) {
            return UpdateResult.acknowledged(0, 0L, null);
        }
        if (update.containsKey("$set")) {
            coll.put(key, update.getDocument("$set").getNumber("v").longValue());
        } else {
            @SuppressWarnings("unchecked")
            List<Long> list = new ArrayList<>((List<Long>) cur);
            list.add(update.getDocument("$push").getNumber("v").longValue());
            coll.put(key, list);
        }
        return UpdateResult.acknowledged(1, 1L, null);
    }

    private void requireSession(Object[] a) {
        if (!(a[0] instanceof ClientSession)) throw new AssertionError("operation outside the session");
        if (!inTxn) throw new AssertionError("operation outside a transaction");
    }

    private void maybeFail(String call) {
        Deque<RuntimeException> q = failures.get(call);
        if (q != null && !q.isEmpty()) throw q.poll();
    }

    private static Object copy(Object v) {
        return v instanceof List ? new ArrayList<>((List<?>) v) : v;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<?> type, InvocationHandler h) {
        return (T) Proxy.newProxyInstance(FakeMongo.class.getClassLoader(), new Class<?>[]{type}, (p, m, a) -> {
            if (m.getDeclaringClass() == Object.class) {
                switch (m.getName()) {
                    case "equals": return p == a[0];
                    case "hashCode": return System.identityHashCode(p);
                    default: return type.getSimpleName() + "(fake)";
                }
            }
            return h.invoke(p, m, a == null ? new Object[0] : a);
        });
    }
}
