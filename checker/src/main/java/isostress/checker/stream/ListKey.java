package isostress.checker.stream;

import java.util.Arrays;

/**
 * What {@link ListScreen} knows of one key, in a few primitive arrays (the key's number indexes them; see
 * {@link ListScreen} for why): its longest read with each element's appender, the appends no read shows yet, and the
 * readers of the longest read.
 *
 * <p>An appender is kept as a "mark": its node times two, plus one when it is not that node's last append to the key
 * (a read ending there is an intermediate read), or {@link #NONE} for an element without one (aborted).
 */
final class ListKey {
    static final int NONE = -1;
    /** Marks an unshown entry a lengthening read took (dropped by {@link #compact}). */
    private static final long TAKEN = -2;

    private static final long[] NO_LONGS = {};
    private static final int[] NO_INTS = {};

    /** The longest read: element i at {@code [2i]}, its appender's mark at {@code [2i + 1]}. */
    long[] shown = NO_LONGS;
    int len;
    /** The first position of the longest read whose element is also at an earlier one; MAX_VALUE: none. */
    int duplicateAt = Integer.MAX_VALUE;
    /** Appends the longest read does not show, in the order they came: element at {@code [2i]}, mark at [2i + 1]. */
    long[] unshown = NO_LONGS;
    int unshownLen;
    /** Where the last {@link #take} found its element: the next is most likely just after it. */
    private int cursor;
    /** Readers of the longest read (nodes). */
    int[] readers = NO_INTS;
    int readersLen;
    /** Aborted appends of elements to this key (their elements are in the screen's aborted map). */
    int aborted;
    /** Scratch of {@link ListScreen#add}, for the transaction (node) being added: see there. */
    int finalSeenBy = -1, readBy = -1;
    /**
     * The node of the longest read's last element's appender ({@link #lastNode}), kept beside the length: every
     * append asks for it, and reading it from {@link #shown} would be one more cold cache line.
     */
    private int last = NONE;

    static int mark(int node, boolean last) {
        return node << 1 | (last ? 0 : 1);
    }

    static int node(long mark) {
        return mark < 0 ? NONE : (int) (mark >> 1);
    }

    static boolean last(long mark) {
        return (mark & 1) == 0;
    }

    long element(int i) {
        return shown[2 * i];
    }

    /** The appender's mark of the longest read's element {@code i}. */
    int markAt(int i) {
        return (int) shown[2 * i + 1];
    }

    /** The node of the longest read's last element's appender, or NONE (no element, or it has none). */
    int lastNode() {
        return last;
    }

    /** The longest read is now the first {@code n} (at least one) of {@link #shown}. */
    void lengthened(int n) {
        len = n;
        last = node(markAt(n - 1));
    }

    void ensureShown(int n) {
        if (shown.length < 2 * n) shown = Arrays.copyOf(shown, Math.max(2 * n, 2 * shown.length));
    }

    void setShown(int i, long element, int mark) {
        shown[2 * i] = element;
        shown[2 * i + 1] = mark;
    }

    void addUnshown(long element, int mark) {
        if (2 * unshownLen == unshown.length) unshown = Arrays.copyOf(unshown, Math.max(4, unshown.length * 2));
        unshown[2 * unshownLen] = element;
        unshown[2 * unshownLen + 1] = mark;
        unshownLen++;
    }

    /** True when {@code element} is an unshown append (not taken). O(unshown). */
    boolean isUnshown(long element) {
        for (int i = 0; i < unshownLen; i++) if (unshown[2 * i] == element && unshown[2 * i + 1] != TAKEN) return true;
        return false;
    }

    /**
     * The mark of unshown {@code element}'s appender, the entry taken (a lengthening read shows it), or
     * {@link Long#MIN_VALUE} when it is not unshown. A read shows appends in about the order they came, so the search
     * starts after the last one found: O(1) then, O(unshown) at worst.
     */
    long take(long element) {
        for (int k = 0, i = cursor; k < unshownLen; k++, i = i + 1 == unshownLen ? 0 : i + 1) {
            if (unshown[2 * i] == element && unshown[2 * i + 1] != TAKEN) {
                long m = unshown[2 * i + 1];
                unshown[2 * i + 1] = TAKEN;
                cursor = i + 1 == unshownLen ? 0 : i + 1;
                return m;
            }
        }
        return Long.MIN_VALUE;
    }

    /** The node of unshown entry {@code i}, or NONE when it was taken. */
    int unshownNode(int i) {
        long m = unshown[2 * i + 1];
        return m == TAKEN ? NONE : node(m);
    }

    /** Drops the entries {@link #take} took, keeping the others' order. */
    void compact() {
        int k = 0;
        for (int i = 0; i < unshownLen; i++) {
            if (unshown[2 * i + 1] == TAKEN) continue;
            unshown[2 * k] = unshown[2 * i];
            unshown[2 * k + 1] = unshown[2 * i + 1];
            k++;
        }
        unshownLen = k;
        cursor = 0;
    }

    void addReader(int v) {
        if (readersLen == readers.length) readers = Arrays.copyOf(readers, Math.max(2, readersLen * 2));
        readers[readersLen++] = v;
    }
}
