package isostress.checker.history;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decimal integers read 8 bytes at a time (SWAR: SIMD within a register), for {@link JsonlChunk}.
 *
 * <p>Why: a list-append history is mostly short numbers ({@code [1,3,2,4,...]}), and a loop over their digits
 * mispredicts its exit once per number, since lengths vary. Here the digit count is found with bit operations and
 * the value with three multiplications, whatever the length below 8.
 */
final class AsciiDigits {
    private AsciiDigits() {
    }

    /** Reads 8 bytes of a {@code byte[]} as one little-endian long: the first byte in memory is the lowest. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** The 8 bytes at {@code b[p..p+8)} (the caller checks they are inside its data). */
    static long eightBytes(byte[] b, int p) {
        return (long) LONGS.get(b, p);
    }

    /** How many of the 8 bytes of {@code w}, from the first, are ASCII digits (8: all). */
    static int leadingDigits(long w) {
        return Long.numberOfTrailingZeros(nonDigits(w)) >>> 3;
    }

    /**
     * A non-zero byte where {@code w}'s byte is not an ASCII digit. A byte of 0xFA or more carries into the next
     * byte, which lies after a non-digit and so does not matter.
     */
    static long nonDigits(long w) {
        return ((w & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
                | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
    }

    /** The value of the first {@code digits} (1-7) bytes of {@code w}, all ASCII digits. */
    static long value(long w, int digits) {
        // Digits as 0-9, moved to the top bytes: the bytes below become leading zeros. The bytes after the digits
        // (and any borrow they make) are shifted out.
        return eightDigits((w - 0x3030303030303030L) << (64 - 8 * digits));
    }

    /**
     * The value of 8 decimal digits, one per byte (0-9, the first and most significant in the lowest byte): the
     * conversion of Lemire's fast_float ({@code parse_eight_digits_unrolled}): pairs, then quads, then both.
     */
    static long eightDigits(long d) {
        d = d * 10 + (d >>> 8);
        return (((d & 0x000000FF000000FFL) * 0x000F424000000064L)
                + (((d >>> 16) & 0x000000FF000000FFL) * 0x0000271000000001L)) >>> 32;
    }
}
