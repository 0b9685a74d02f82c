package isostress.harness.db.mongodb;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MongoDB adapter against a real replica set, named by {@code ISOSTRESS_MONGODB_URI} (e.g.
 * {@code mongodb://localhost:27017/?replicaSet=rs0}; transactions need a replica set, a one-member one will do).
 * Without it every test is skipped: no MongoDB server can be installed on the development machines, so this is the
 * one database exempt from ISOSTRESS_REQUIRE_ALL. The tests drop and refill the {@code isostress} database's
 * collections.
 */
class MongoAdapterTest {
    static final String ENV = "ISOSTRESS_MONGODB_URI";
    static final DatabaseAdapter.CasExpectations INITIAL = key -> DatabaseAdapter.INITIAL;

    static MongoClientFactory factory;

    /** Per test, not per class, so that each skipped test is reported with the reason. */
    @BeforeEach
    void requireMongo() {
        String uri = System.getenv(ENV);
        Assumptions.assumeTrue(uri != null && !uri.isBlank(), "set " + ENV + "=mongodb://host:port/?replicaSet=rs0 "
                + "to a MongoDB replica set (4.2+) to run the MongoDB adapter tests; no MongoDB server can be "
                + "installed on this machine");
        if (factory == null) factory = new MongoClientFactory(List.of(uri), null, null, Duration.ofSeconds(10));
    }

    @AfterAll
    static void disconnect() {
        if (factory != null) factory.close();
    }

    static List<MicroOp> run(TxnClient c, MicroOp... ops) throws Exception {
        return c.run(List.of(ops), INITIAL);
    }

    static MicroOp.Read read(long k, long v) {
        return new MicroOp.Read(k, v);
    }

    @Test
    void schemaHoldsEveryKeyAtItsInitialValueAndIsRecreatedFromScratch() throws Exception {
        factory.createSchema(WorkloadType.MINI, 9);
        try (TxnClient c = factory.open(0, 0)) {
            run(c, new MicroOp.Write(3, 7));
            factory.createSchema(WorkloadType.MINI, 9);
            List<MicroOp> reads = new ArrayList<>();
            List<MicroOp> expected = new ArrayList<>();
            for (long k = 0; k <= 9; k++) {
                reads.add(new MicroOp.Read(k, null));
                expected.add(read(k, 0));
            }
            assertEquals(expected, c.run(reads, INITIAL));
            TxnClient.TxnFailure f = assertThrows(TxnClient.TxnFailure.class, () -> run(c, new MicroOp.Read(10, null)));
            assertEquals(Failure.FATAL, f.failure(), "key 10 was never created");

            factory.createSchema(WorkloadType.LIST_APPEND, 4);
            assertEquals(List.of(new MicroOp.ListRead(0, List.of()), new MicroOp.ListRead(4, List.of())),
                    run(c, new MicroOp.ListRead(0, null), new MicroOp.ListRead(4, null)));
        }
    }

    @Test
    void everyOpKindRoundTrips() throws Exception {
        factory.createSchema(WorkloadType.MINI, 9);
        factory.createSchema(WorkloadType.LIST_APPEND, 9);
        try (TxnClient c = factory.open(0, 0)) {
            assertEquals(List.of(new MicroOp.Write(1, 5), read(1, 5), new MicroOp.Cas(2, 0L, 8), read(2, 8)),
                    run(c, new MicroOp.Write(1, 5), new MicroOp.Read(1, null), new MicroOp.Cas(2, null, 8),
                            new MicroOp.Read(2, null)), "a transaction reads its own writes");
            assertEquals(List.of(read(1, 5), read(2, 8)), run(c, new MicroOp.Read(1, null), new MicroOp.Read(2, null)));
            run(c, new MicroOp.Append(3, 11), new MicroOp.Append(3, 12));
            run(c, new MicroOp.Append(3, 13));
            assertEquals(List.of(new MicroOp.ListRead(3, List.of(11L, 12L, 13L))),
                    run(c, new MicroOp.ListRead(3, null)));
        }
    }

    @Test
    void casMismatchAbortsTheWholeTransaction() throws Exception {
        factory.createSchema(WorkloadType.MINI, 9);
        try (TxnClient c = factory.open(0, 0)) {
            TxnClient.TxnFailure f = assertThrows(TxnClient.TxnFailure.class, () -> c.run(List.of(
                    new MicroOp.Write(5, 50), new MicroOp.Cas(6, null, 1)), key -> 99));
            assertEquals(Failure.ABORTED, f.failure());
            assertEquals(List.of(read(5, 0), read(6, 0)), run(c, new MicroOp.Read(5, null), new MicroOp.Read(6, null)),
                    "the write before the failed compare-and-set was rolled back");
        }
    }

    /**
     * B writes a document A has written and not yet committed: MongoDB fails B at once with WriteConflict
     * (TransientTransactionError) instead of waiting for A's lock. B runs from inside A, between two of A's ops,
     * through the compare-and-set callback.
     */
    @Test
    void secondWriterOfAnUncommittedDocumentAborts() throws Exception {
        factory.createSchema(WorkloadType.MINI, 9);
        try (TxnClient a = factory.open(0, 0); TxnClient b = factory.open(1, 0)) {
            TxnClient.TxnFailure[] bFailure = new TxnClient.TxnFailure[1];
            a.run(List.of(new MicroOp.Write(7, 1), new MicroOp.Cas(8, null, 2)), key -> {
                bFailure[0] = failureOf(b, new MicroOp.Write(7, 3));
                return DatabaseAdapter.INITIAL;
            });
            assertNotNull(bFailure[0], "B committed a write to a document A held");
            assertEquals(Failure.ABORTED, bFailure[0].failure(), bFailure[0].code());
            assertTrue(bFailure[0].code().contains("112") || bFailure[0].code().contains("TransientTransactionError"),
                    bFailure[0].code());
            assertEquals(List.of(read(7, 1), read(8, 2)), run(a, new MicroOp.Read(7, null), new MicroOp.Read(8, null)));
        }
    }

    /** A reads, B overwrites and commits, A writes the same document: first committer wins, A aborts. */
    @Test
    void writerWhoseSnapshotIsStaleAborts() throws Exception {
        factory.createSchema(WorkloadType.MINI, 9);
        try (TxnClient a = factory.open(0, 0); TxnClient b = factory.open(1, 0)) {
            TxnClient.TxnFailure f = assertThrows(TxnClient.TxnFailure.class, () -> a.run(List.of(
                    new MicroOp.Read(4, null), new MicroOp.Cas(5, null, 1), new MicroOp.Write(4, 10)), key -> {
                        try {
                            run(b, new MicroOp.Write(4, 20));
                        } catch (Exception e) {
                            throw new AssertionError("B should commit: nobody else wrote key 4", e);
                        }
                        return DatabaseAdapter.INITIAL;
                    }));
            assertEquals(Failure.ABORTED, f.failure(), f.code());
            assertEquals(List.of(read(4, 20), read(5, 0)),
                    run(a, new MicroOp.Read(4, null), new MicroOp.Read(5, null)));
        }
    }

    static TxnClient.TxnFailure failureOf(TxnClient c, MicroOp... ops) {
        try {
            run(c, ops);
            return null;
        } catch (TxnClient.TxnFailure f) {
            return f;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void miniWorkloadEndToEndIsSnapshotIsolation() throws Exception {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.mini(6, 600, 20, new KeyDistribution.Uniform(20), 17));
        checkEndToEnd(w);
    }

    @Test
    void listAppendWorkloadEndToEndIsSnapshotIsolation() throws Exception {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.mini(6, 600, 8, new KeyDistribution.Uniform(8), 23)
                .withType(WorkloadType.LIST_APPEND).withOps(1, 5, 0.5, 0.0));
        History h = checkEndToEnd(w);
        // Every element a list read returns was appended once, by some transaction, and appears once.
        Set<Long> appended = new HashSet<>();
        for (Txn t : h) {
            for (MicroOp m : t.ops()) if (m instanceof MicroOp.Append) appended.add(((MicroOp.Append) m).value());
        }
        for (Txn t : h) {
            if (t.outcome() != Outcome.OK) continue;
            for (MicroOp m : t.ops()) {
                if (!(m instanceof MicroOp.ListRead)) continue;
                List<Long> vs = ((MicroOp.ListRead) m).values();
                assertTrue(appended.containsAll(vs), "read " + vs + " in " + t);
                assertEquals(vs.size(), new HashSet<>(vs).size(), "duplicate element in " + t);
            }
        }
    }

    /** Runs {@code w} on fresh keys, records it as a history, and checks it is snapshot isolation. */
    static History checkEndToEnd(Workload w) throws Exception {
        factory.createSchema(w.spec().type(), w.maxKey());
        History h = record(w);
        long ok = 0;
        for (Txn t : h) {
            if (t.outcome() != Outcome.OK) continue;
            ok++;
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.Read) assertNotNull(((MicroOp.Read) m).value(), "read without a value: " + t);
                if (m instanceof MicroOp.ListRead) assertNotNull(((MicroOp.ListRead) m).values(), "list read: " + t);
            }
        }
        assertEquals(w.size(), h.size());
        assertTrue(ok >= w.size() / 10, "only " + ok + " of " + w.size() + " committed");
        Result r = Checker.check(h, List.of(READ_COMMITTED, SNAPSHOT_ISOLATION), CheckOptions.DEFAULTS);
        for (IsolationLevel l : List.of(READ_COMMITTED, SNAPSHOT_ISOLATION)) {
            assertEquals(Verdict.VALID, r.level(l).verdict(), l + ": " + r.level(l).reason() + " " + r.anomalies());
        }
        return h;
    }

    /**
     * Runs every session of {@code w} on its own thread and client, as the harness's session workers do: invocation
     * and completion indices from one counter (real-time order), a session that ends in info continues as a new
     * process, and a compare-and-set expects the session's last read.
     */
    static History record(Workload w) throws Exception {
        int n = w.spec().sessions();
        AtomicLong events = new AtomicLong();
        List<Txn> txns = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<List<Txn>>> sessions = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                int session = s;
                sessions.add(pool.submit(() -> {
                    List<Txn> mine = new ArrayList<>();
                    Map<Long, Long> lastRead = new HashMap<>();
                    long process = session;
                    try (TxnClient c = factory.open(session, 0)) {
                        for (int i = 0; i < w.sessionSize(session); i++) {
                            List<MicroOp> ops = w.ops(w.txn(session, i));
                            long invoke = events.getAndIncrement();
                            Outcome o = Outcome.OK;
                            List<MicroOp> done;
                            try {
                                done = c.run(ops, k -> lastRead.getOrDefault(k, DatabaseAdapter.INITIAL));
                                for (MicroOp m : done) {
                                    if (m instanceof MicroOp.Read) lastRead.put(m.key(), ((MicroOp.Read) m).value());
                                }
                            } catch (TxnClient.TxnFailure f) {
                                if (f.failure().stopsRun()) throw new AssertionError(f.code(), f);
                                o = f.failure().outcome();
                                done = o == Outcome.INFO && f.observed() != null ? f.observed() : ops;
                            }
                            long complete = events.getAndIncrement();
                            mine.add(new Txn(0, process, o, done, invoke, complete, -1, -1, 0, null, null));
                            if (o == Outcome.INFO) process += n;
                        }
                    }
                    return mine;
                }));
            }
            for (Future<List<Txn>> f : sessions) txns.addAll(f.get());
        } finally {
            pool.shutdownNow();
        }
        txns.sort(Comparator.comparingLong(Txn::invokeIndex));
        History.Builder b = History.builder().source(w.spec().type().yamlName() + " on MongoDB")
                .initial(InitialState.allKeys(DatabaseAdapter.INITIAL)).realTime(true);
        for (Txn t : txns) b.add(t);
        return b.build();
    }
}
