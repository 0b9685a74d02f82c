package isostress.checker.history;

import isostress.checker.Hist;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.model.WitnessFinding;
import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessJoin;
import isostress.checker.witness.WitnessReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The witness reader answers any bytes with a witness or with one sentence naming the file and the line, in bounded
 * time, and what it reads joins with a history and renders without another error. The mutations are
 * {@link HistoryFuzz}'s (bit flips, tokens, deletions, truncations, splices of the history seeds, long runs); the
 * seeds are witness files. {@code -Disostress.fuzz.seed=N -Disostress.fuzz.case=I} replays a case alone.
 */
class WitnessFuzzTest {
    static final int TRIES = 20_000;
    static final long SEED = 29;
    static final String SOURCE = "fuzz-witness.jsonl";

    /** The seeds: a clean log of the history below, and one with every finding, string keys and unknown fields. */
    static final List<byte[]> SEEDS = List.of(
            lines("{\"pos\":1,\"node\":\"n1\",\"txid\":\"100\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}",
                    "{\"pos\":2,\"node\":\"n1\",\"txid\":\"101\",\"writes\":[[\"w\",1,2]]}",
                    "{\"pos\":3,\"node\":\"n1\",\"txid\":102,\"writes\":[[\"append\",5,7]]}",
                    "{\"pos\":1,\"node\":\"n2\",\"txid\":\"0-1-1\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}"),
            lines("{\"pos\":10,\"node\":\"n1\",\"txid\":\"7\",\"writes\":[[\"w\",1,1]],\"time\":{\"s\":[1,2]}}",
                    "{\"writes\":[[\"w\",3,1]],\"txid\":\"8\",\"node\":\"n1\",\"pos\":11}",
                    "{\"pos\":12,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[[\"w\",\"x\",4],[\"append\",\"y\",5]]}",
                    "{\"pos\":13,\"node\":\"n1\",\"txid\":\"10\",\"writes\":[]}"));

    static final History HISTORY = new Hist().ok(1, "w 1 1, w 2 1").ok(2, "r 1 1, w 1 2").fail(3, "w 3 1")
            .info(4, "w 4 1").ok(1, "r 2 1").build();

    static final History LISTS = new Hist().ok(1, "append 5 7").info(2, "append 5 8").ok(3, "r 5 [7]").build();

    record Case(int seed, List<HistoryFuzz.Mutation> mutations) {
        List<Case> smaller() {
            List<Case> out = new ArrayList<>();
            for (int i = 0; i < mutations.size(); i++) {
                List<HistoryFuzz.Mutation> m = new ArrayList<>(mutations);
                m.remove(i);
                out.add(new Case(seed, List.copyOf(m)));
            }
            return out;
        }
    }

    static Case randomCase(SplittableRandom r) {
        int seed = r.nextInt(SEEDS.size());
        int n = HistoryFuzz.MIN_MUTATIONS + r.nextInt(2);
        List<HistoryFuzz.Mutation> ms = new ArrayList<>();
        for (int i = 0; i < n; i++) ms.add(HistoryFuzz.mutation(r));
        return new Case(seed, List.copyOf(ms));
    }

    @Test
    void everyInputIsReadOrRefusedWithFileAndLine() {
        long[] tally = new long[3]; // inputs, read, refused
        SeededFuzz<Case> fuzz = new SeededFuzz<>(SEED, TRIES, WitnessFuzzTest::randomCase, Case::smaller);
        long cases = fuzz.run(c -> {
            for (int k = 1; k <= c.mutations().size(); k++) {
                byte[] b = HistoryFuzz.mutate(SEEDS.get(c.seed()), c.mutations().subList(0, k));
                check(b, tally);
            }
        });
        System.out.println("WitnessFuzzTest: " + tally[0] + " inputs, " + tally[1] + " read, " + tally[2] + " refused");
        assertTrue(tally[0] >= cases * HistoryFuzz.MIN_MUTATIONS, "too few inputs: " + tally[0]);
        assertTrue(tally[1] > 0 && tally[2] > 0, "the mutations never, or always, break the witness");
    }

    private static void check(byte[] b, long[] tally) throws Exception {
        long t0 = System.nanoTime();
        tally[0]++;
        Witness w;
        try {
            w = WitnessReader.read(new ByteArrayInputStream(b), SOURCE);
        } catch (InputException e) {
            String m = e.getMessage();
            assertTrue(e.line() >= 1 && m.startsWith(SOURCE + ":" + e.line() + ": "), "no file:line: " + m);
            assertTrue(m.length() < 2_000, "message too long: " + m.length());
            tally[2]++;
            fast(t0);
            return;
        }
        tally[1]++;
        for (History h : List.of(HISTORY, LISTS)) {
            WitnessJoin.Joined j = WitnessJoin.join(h, w, 3);
            for (WitnessFinding f : j.report().findings()) {
                assertTrue(TextRenderer.render(f, true).contains(f.name()));
            }
            ResultJson.witness(j.report());
            assertTrue(j.resolved().size() == h.size());
        }
        fast(t0);
    }

    private static void fast(long t0) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < HistoryFuzz.SLOW.toMillis(), "took " + ms + " ms");
    }

    private static byte[] lines(String... ls) {
        return (String.join("\n", ls) + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
