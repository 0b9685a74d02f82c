package isostress.checker.index;

import java.util.Arrays;

/**
 * Euler-tour intervals on a register history's version forest: u is an ancestor-or-self of v iff
 * tin[u] <= tin[v] < tout[u]. Built on first use (see {@link RegisterIndex}): only classifying a violation or the
 * weak levels need ancestry.
 */
final class VersionTour {
    private final int accCount;
    private final int[] tin, tout;

    VersionTour(RegisterIndex m) {
        int versionCount = m.versionCount;
        accCount = m.accCount;
        int[] childStart = m.childStart, children = m.children;
        tin = new int[versionCount];
        tout = new int[versionCount];
        Arrays.fill(tin, -1);
        int clock = 0;
        int[] stack = new int[versionCount];
        int[] cursor = new int[versionCount];
        for (int root = 0; root < versionCount; root++) {
            boolean isRoot = root >= accCount ? true : (m.accWrites[root] && m.included[m.accTxn[root]]
                    && m.accSource[root] == RegisterIndex.NONE);
            if (!isRoot || tin[root] >= 0) continue;
            int sp = 0;
            stack[sp] = root;
            cursor[sp] = childStart[root];
            tin[root] = clock++;
            while (sp >= 0) {
                int v = stack[sp];
                if (cursor[sp] < childStart[v + 1]) {
                    int c = children[cursor[sp]++];
                    if (tin[c] >= 0) continue;
                    tin[c] = clock++;
                    sp++;
                    stack[sp] = c;
                    cursor[sp] = childStart[c];
                } else {
                    tout[v] = clock;
                    sp--;
                }
            }
        }
    }

    boolean descendantOrSelf(int a, int v) {
        return tin[v] >= 0 && tin[a] >= 0 && tin[v] <= tin[a] && tin[a] < tout[v];
    }

    boolean inForest(int a) {
        return tin[a] >= 0;
    }

    /** For each access: true when it is a version strictly below a version with two or more children. O(n). */
    boolean[] belowDivergence(RegisterIndex m) {
        int versionCount = tin.length;
        int[] diff = new int[versionCount + 2];
        for (int v = 0; v < versionCount; v++) {
            if (m.divergent(v) && tin[v] >= 0) {
                diff[tin[v] + 1]++;
                diff[tout[v]]--;
            }
        }
        for (int i = 1; i < diff.length; i++) diff[i] += diff[i - 1];
        boolean[] below = new boolean[accCount];
        for (int a = 0; a < accCount; a++) below[a] = tin[a] >= 0 && diff[tin[a]] > 0;
        return below;
    }
}
