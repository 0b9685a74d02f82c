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
class WriteIndexTest {
    @Test
    void keysAreNumberedInTheOrderFirstSeenWhateverTheirRange() {
        WriteIndex index = new WriteIndex();
        long[] keys = {5, -3, 5, 1L << 40, 70_000, -3, 0, WriteIndex.DENSE_LIMIT - 1, WriteIndex.DENSE_LIMIT,
                Long.MIN_VALUE, 1L << 40, 0};
        int[] expected = {0, 1, 0, 2, 3, 1, 4, 5, 6, 7, 2, 4};
        for (int i = 0; i < keys.length; i++) assertEquals(expected[i], index.key(keys[i]), "key " + keys[i]);
        assertEquals(8, index.keys());
    }

    @Test
    void aRandomMixAgreesWithAHashMap() {
        WriteIndex index = new WriteIndex();
        Map<Long, Integer> model = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long k = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextLong(5_000_000); // both sides of the direct table's limit
                case 1 -> -rnd.nextLong(1_000);
                default -> rnd.nextLong(2_000);
            };
            Integer want = model.computeIfAbsent(k, x -> model.size());
            assertEquals(want, index.key(k), "key " + k);
        }
    }

    @Test
    void pairsAreNumberedOnTheirFirstWrite() {
        WriteIndex index = new WriteIndex();
        assertEquals(WriteIndex.MISSING, index.version(1, 10));
        assertEquals(0, index.write(1, 10));
        assertEquals(1, index.write(2, 10));
        assertEquals(0, index.write(1, 10), "a second write of the pair keeps its number");
        assertEquals(0, index.version(1, 10));
        assertEquals(1, index.version(2, 10));
        assertEquals(WriteIndex.MISSING, index.version(1, 11));
        assertEquals(2, index.versions());
    }
}
