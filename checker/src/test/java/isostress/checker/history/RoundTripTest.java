package isostress.checker.history;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** JSONL -> model -> EDN -> model (and back to JSONL) is the identity on random histories of every op kind. */
class RoundTripTest {

    @Test
    void jsonlToModelToEdnToModelIsIdentity() throws IOException {
        for (long seed = 0; seed < 500; seed++) {
            History original = random(seed);
            History viaJsonl = roundTrip(original, HistoryFormat.JSONL);
            History viaEdn = roundTrip(viaJsonl, HistoryFormat.EDN);
            History backToJsonl = roundTrip(viaEdn, HistoryFormat.JSONL);
            assertSame(original, viaJsonl, "seed " + seed + " jsonl");
            assertSame(original, viaEdn, "seed " + seed + " edn");
            assertSame(original, backToJsonl, "seed " + seed + " jsonl again");
        }
    }

    @Test
    void textWriterAndReaderAgreeOnCommittedRegisterHistories() throws IOException {
        for (long seed = 0; seed < 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            History.Builder b = History.builder().initial(InitialState.allKeys(0L)).realTime(false);
            long value = 1;
            int n = 1 + rnd.nextInt(20);
            for (int t = 0; t < n; t++) {
                b.beginTxn(rnd.nextInt(4), Outcome.OK, 2L * t, 2L * t + 1, -1, -1, 0);
                int ops = 1 + rnd.nextInt(4);
                for (int i = 0; i < ops; i++) {
                    long k = rnd.nextInt(5);
                    if (rnd.nextBoolean()) b.read(k, (long) rnd.nextInt(10)); else b.write(k, value++);
                }
                b.endTxn();
            }
            History h = b.build();
            History back = roundTrip(h, HistoryFormat.TEXT);
            assertEquals(h.size(), back.size(), "seed " + seed);
            for (int t = 0; t < h.size(); t++) {
                assertEquals(h.txn(t).ops(), back.txn(t).ops(), "seed " + seed + " txn " + t);
                assertEquals(h.process(t) + 1, back.process(t), "sessions are processes plus 1");
            }
            assertEquals(h.initial(), back.initial());
        }
    }

    static History roundTrip(History h, HistoryFormat f) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        f.write(h, out);
        return f.reader().read(new ByteArrayInputStream(out.toByteArray()), "roundtrip." + f.cliName());
    }

    static void assertSame(History a, History b, String what) {
        assertEquals(a.size(), b.size(), what + ": size");
        assertEquals(a.initial(), b.initial(), what + ": initial");
        assertEquals(a.realTime(), b.realTime(), what + ": real time");
        assertEquals(a.sideEvents(), b.sideEvents(), what + ": side events");
        for (int t = 0; t < a.size(); t++) {
            Txn x = a.txn(t), y = b.txn(t);
            // Lines are where a transaction sits in its file, which differs between formats.
            assertEquals(withoutLine(x), withoutLine(y), what + ": txn " + t);
        }
    }

    static Txn withoutLine(Txn t) {
        return new Txn(t.id(), t.process(), t.outcome(), t.ops(), t.invokeIndex(), t.completeIndex(), t.invokeTime(),
                t.completeTime(), 0, t.node(), t.isolation());
    }

    /** A random history with every op kind, outcomes (pending too), nodes, isolation levels and nemesis events. */
    static History random(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        History.Builder b = History.builder().source("random");
        if (rnd.nextInt(3) == 0) {
            b.initial(new InitialState(rnd.nextBoolean() ? null : 0L, rnd.nextBoolean() ? Map.of(3L, 9L) : Map.of()));
        }
        long index = 0, value = 1;
        int procs = 1 + rnd.nextInt(4);
        int n = 1 + rnd.nextInt(25); // an empty history is an input error, not a history
        List<Integer> open = new ArrayList<>();
        long[] process = new long[procs];
        for (int p = 0; p < procs; p++) process[p] = p;
        for (int i = 0; i < n; i++) {
            int p = rnd.nextInt(procs);
            long time = rnd.nextBoolean() ? -1 : index * 1000;
            Outcome o = Outcome.values()[rnd.nextInt(3)];
            boolean pending = i == n - 1 && rnd.nextBoolean();
            int t = b.beginTxn(process[p], pending ? Outcome.INFO : o, index++, pending ? History.PENDING : index++,
                    time, pending ? -1 : time + 500, 0);
            int ops = rnd.nextInt(5);
            for (int k = 0; k < ops; k++) {
                long key = rnd.nextInt(6) - 1;
                if (pending) { // never completed: only the invocation, whose reads have no values
                    if (rnd.nextBoolean()) b.readNull(key); else b.write(key, value++);
                    continue;
                }
                switch (rnd.nextInt(6)) {
                    case 0: b.read(key, rnd.nextBoolean() ? null : (Long) (long) rnd.nextInt(100)); break;
                    case 1: b.write(key, value++); break;
                    case 2: b.append(key, value++); break;
                    case 3: {
                        long[] vs = new long[rnd.nextInt(4)];
                        for (int j = 0; j < vs.length; j++) vs[j] = rnd.nextInt(50);
                        // Jepsen writes an unknown list as nil, which reads back as a register read: not generated.
                        b.listRead(key, vs, vs.length);
                        break;
                    }
                    case 4: b.cas(key, rnd.nextBoolean() ? null : (Long) (long) rnd.nextInt(9), value++); break;
                    default: b.read(key, -5L);
                }
            }
            b.endTxn();
            if (!pending && rnd.nextInt(4) == 0) b.node(t, "n" + rnd.nextInt(3));
            if (!pending && rnd.nextInt(4) == 0) b.isolation(t, rnd.nextBoolean() ? "serializable" : "read-committed");
            if (o == Outcome.INFO && !pending) process[p] += procs;
            if (rnd.nextInt(6) == 0) {
                b.sideEvent(new SideEvent(index++, -1, "nemesis", "info", "start-partition",
                        rnd.nextBoolean() ? null : "[\"n1\",\"n2\"]"));
            }
        }
        return b.build();
    }
}
