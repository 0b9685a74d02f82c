package isostress.checker.general;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the data fixes of each key's version order, for checks that need the order itself (parallel snapshot
 * isolation, {@link PsiCheck}): a known prefix, starting with the initial version, then segments whose place after
 * the prefix, one after another, is not revealed. A key is ordered when it has at most one segment.
 *
 * <ul>
 *   <li>List-append: the prefix is the key's chain (Elle §3.1: every read is a prefix of the append order); each
 *       committed append no read shows is a segment of its own (it follows every element a read shows, or that read
 *       would show it too).</li>
 *   <li>Registers: the prefix follows read-modify-writes from the initial version (the writer that read version v
 *       and wrote the key comes right after v); each blind write starts a segment that its read-modify-writes extend.
 *       This order is forced only among executions that can be PSI at all: a segment placed inside another chain
 *       falls between a read and that reader's overwrite, W -ww-> R -rw-> W, a cycle with one rw edge. A version
 *       with two read-modify-write children is a lost update, which the caller decides before.</li>
 * </ul>
 * A register key whose order the commit log gives ({@link LogOrder}) has it as its prefix, without segments.
 * Versions of uncommitted writers are left out; written versions the walk does not reach (a read-modify-write
 * cycle, a read of an uncommitted version) leave their key unordered, and the checks that need them report
 * elsewhere.
 */
final class KnownVersionOrder {
    /** Per key, its prefix: the initial version, then written versions. */
    final int[][] prefix;
    /** Per key, its segments (empty when none). */
    final List<List<int[]>> segments;
    /** Per key, whether some written version is placed nowhere. */
    final boolean[] incomplete;

    /** The writer of each version (the observations'). */
    private final int[] verTxn;

    private KnownVersionOrder(int[][] prefix, List<List<int[]>> segments, boolean[] incomplete, int[] verTxn) {
        this.verTxn = verTxn;
        this.prefix = prefix;
        this.segments = segments;
        this.incomplete = incomplete;
    }

    /** True when key k's version order is fully known. */
    boolean ordered(int k) {
        return !incomplete[k] && segments.get(k).size() <= 1;
    }

    /**
     * This order with each key's segments placed one after another, in the order of {@code rank} (a number per
     * transaction) of their first writers (a complete order, though not one the data forces).
     */
    KnownVersionOrder following(java.util.function.IntToLongFunction rank) {
        List<int[]> perms = new ArrayList<>(segments.size());
        for (List<int[]> segs : segments) {
            Integer[] idx = new Integer[segs.size()];
            for (int i = 0; i < idx.length; i++) idx[i] = i;
            Arrays.sort(idx, (a, b) -> Long.compare(rank.applyAsLong(verTxn[segs.get(a)[0]]),
                    rank.applyAsLong(verTxn[segs.get(b)[0]])));
            int[] perm = new int[idx.length];
            for (int i = 0; i < idx.length; i++) perm[i] = idx[i];
            perms.add(perm);
        }
        return arranged(perms);
    }

    /** This order with key k's segments placed one after another in the order {@code perms.get(k)} (indices). */
    KnownVersionOrder arranged(List<int[]> perms) {
        List<List<int[]>> merged = new ArrayList<>(segments.size());
        for (int k = 0; k < segments.size(); k++) {
            List<int[]> segs = segments.get(k);
            if (segs.size() <= 1) {
                merged.add(segs);
                continue;
            }
            int len = 0;
            for (int[] seg : segs) len += seg.length;
            int[] one = new int[len];
            int i = 0;
            for (int s : perms.get(k)) {
                System.arraycopy(segs.get(s), 0, one, i, segs.get(s).length);
                i += segs.get(s).length;
            }
            merged.add(List.of(one));
        }
        return new KnownVersionOrder(prefix, merged, incomplete, verTxn);
    }

    static KnownVersionOrder of(Observations o) {
        if (o.lists) return lists(o);
        KnownVersionOrder r = registers(o);
        if (o.log == null) return r;
        // Keys whose order is the commit log's (LogOrder): their chain is the whole order.
        for (int k = 0; k < o.keys; k++) {
            if (!o.log.fromLog()[k]) continue;
            int[] p = new int[1 + o.chainStart[k + 1] - o.chainStart[k]];
            p[0] = o.initialVersion(k);
            System.arraycopy(o.chain, o.chainStart[k], p, 1, p.length - 1);
            r.prefix[k] = p;
            r.segments.set(k, new ArrayList<>());
            r.incomplete[k] = false;
        }
        return r;
    }

    /** True when v is a version a committed transaction wrote (version ids are access ids: most only read). */
    private static boolean written(Observations o, int v) {
        return !o.isInitial(v) && o.accWrite[v] == v;
    }

    private static KnownVersionOrder lists(Observations o) {
        int[][] prefix = new int[o.keys][];
        List<List<int[]>> segments = new ArrayList<>(o.keys);
        boolean[] inChain = new boolean[o.versions];
        for (int k = 0; k < o.keys; k++) {
            int[] p = new int[1 + o.chainStart[k + 1] - o.chainStart[k]];
            int len = 0;
            p[len++] = o.initialVersion(k);
            for (int i = o.chainStart[k]; i < o.chainStart[k + 1]; i++) {
                int v = o.chain[i];
                inChain[v] = true;
                if (written(o, v)) p[len++] = v; // an uncommitted append is reported elsewhere (G1a, dirty update)
            }
            prefix[k] = Arrays.copyOf(p, len);
            segments.add(new ArrayList<>());
        }
        for (int v = 0; v < o.versions - o.keys; v++) {
            if (!inChain[v] && written(o, v)) segments.get(o.verKey[v]).add(new int[] {v});
        }
        return new KnownVersionOrder(prefix, segments, new boolean[o.keys], o.verTxn);
    }

    private static KnownVersionOrder registers(Observations o) {
        int[] child = new int[o.versions];
        Arrays.fill(child, -1);
        boolean[] root = new boolean[o.versions];
        boolean[] incomplete = new boolean[o.keys];
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int w = o.accWrite[a];
                if (w < 0) continue;
                int v = o.accRead[a];
                if (v < 0) {
                    root[w] = true;
                } else if (child[v] >= 0 || !(o.isInitial(v) || written(o, v))) {
                    incomplete[o.accKey[a]] = true; // a lost update or a read of an uncommitted write
                } else {
                    child[v] = w;
                }
            }
        }
        int[] placed = new int[o.keys], writes = new int[o.keys];
        for (int v = 0; v < o.versions - o.keys; v++) if (written(o, v)) writes[o.verKey[v]]++;
        int[][] prefix = new int[o.keys][];
        List<List<int[]>> segments = new ArrayList<>(o.keys);
        for (int k = 0; k < o.keys; k++) {
            prefix[k] = walk(child, o.initialVersion(k), o.versions);
            placed[k] += prefix[k].length - 1;
            segments.add(new ArrayList<>());
        }
        for (int v = 0; v < o.versions - o.keys; v++) {
            if (!root[v] || !written(o, v)) continue;
            int[] seg = walk(child, v, o.versions);
            segments.get(o.verKey[v]).add(seg);
            placed[o.verKey[v]] += seg.length;
        }
        for (int k = 0; k < o.keys; k++) if (placed[k] != writes[k]) incomplete[k] = true;
        return new KnownVersionOrder(prefix, segments, incomplete, o.verTxn);
    }

    /** v, its child, its child's child, ... (bounded: a cycle of children cannot start at a root). */
    private static int[] walk(int[] child, int v, int limit) {
        int[] out = new int[8];
        int len = 0;
        for (int x = v; x >= 0 && len <= limit; x = child[x]) {
            if (len == out.length) out = Arrays.copyOf(out, 2 * len);
            out[len++] = x;
        }
        return Arrays.copyOf(out, len);
    }
}
