package isostress.checker.history;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The numbering the streaming check's prefix and screen share: keys numbered 0, 1, 2, ... in the order first seen,
 * whether they go through the direct table (small, non-negative) or the hash map (negative, huge), and written pairs
 * numbered on their first write only.
 */
class KeyValueNumbersTest {
    @Test
    void keysAreNumberedInTheOrderFirstSeenWhateverTheirRange() {
        KeyValueNumbers numbers = new KeyValueNumbers();
        long[] keys = {5, -3, 5, 1L << 40, 70_000, -3, 0, KeyValueNumbers.DENSE_LIMIT - 1, KeyValueNumbers.DENSE_LIMIT,
                Long.MIN_VALUE, 1L << 40, 0};
        int[] expected = {0, 1, 0, 2, 3, 1, 4, 5, 6, 7, 2, 4};
        for (int i = 0; i < keys.length; i++) assertEquals(expected[i], numbers.key(keys[i]), "key " + keys[i]);
        assertEquals(8, numbers.keys());
    }

    @Test
    void aRandomMixAgreesWithAHashMap() {
        KeyValueNumbers numbers = new KeyValueNumbers();
        Map<Long, Integer> model = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long k = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextLong(5_000_000); // both sides of the direct table's limit
                case 1 -> -rnd.nextLong(1_000);
                default -> rnd.nextLong(2_000);
            };
            Integer want = model.computeIfAbsent(k, x -> model.size());
            assertEquals(want, numbers.key(k), "key " + k);
        }
    }

    @Test
    void pairsAreNumberedOnTheirFirstWrite() {
        KeyValueNumbers numbers = new KeyValueNumbers();
        assertEquals(KeyValueNumbers.MISSING, numbers.version(1, 10));
        assertEquals(0, numbers.write(1, 10));
        assertEquals(1, numbers.write(2, 10));
        assertEquals(0, numbers.write(1, 10), "a second write of the pair keeps its number");
        assertEquals(0, numbers.version(1, 10));
        assertEquals(1, numbers.version(2, 10));
        assertEquals(KeyValueNumbers.MISSING, numbers.version(1, 11));
        assertEquals(2, numbers.versions());
    }

    @Test
    void aKeysLastWriteAnswersAsTheMapDoes() {
        KeyValueNumbers numbers = new KeyValueNumbers();
        Map<String, Integer> model = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            // Small keys (kept beside the key), keys past the limit and negative ones; values repeat sometimes.
            long k = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextLong(50);
                case 1 -> KeyValueNumbers.RECENT_LIMIT + rnd.nextLong(50);
                default -> -1 - rnd.nextLong(50);
            };
            long v = rnd.nextLong(40);
            if (rnd.nextBoolean()) {
                Integer want = model.computeIfAbsent(k + "/" + v, x -> model.size());
                assertEquals(want, numbers.write(k, v), "write " + k + "/" + v);
            } else {
                Integer want = model.get(k + "/" + v);
                assertEquals(want == null ? KeyValueNumbers.MISSING : want, numbers.version(k, v), k + "/" + v);
            }
        }
    }
}
