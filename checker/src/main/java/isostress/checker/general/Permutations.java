package isostress.checker.general;

import java.util.ArrayList;
import java.util.List;

/** Permutations of small sets, and combinations of one permutation per set: {@link PsiCheck}'s case split. */
final class Permutations {
    private Permutations() {
    }

    /** Every permutation of 0..m-1. */
    static int[][] all(int m) {
        List<int[]> out = new ArrayList<>();
        permute(new int[m], new boolean[m], 0, out);
        return out.toArray(new int[0][]);
    }

    private static void permute(int[] cur, boolean[] used, int depth, List<int[]> out) {
        if (depth == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int i = 0; i < cur.length; i++) {
            if (used[i]) continue;
            used[i] = true;
            cur[depth] = i;
            permute(cur, used, depth + 1, out);
            used[i] = false;
        }
    }

    /** The next combination (mixed radix: at[i] indexes perms.get(i)); false after the last. */
    static boolean next(int[] at, List<int[][]> perms) {
        for (int i = 0; i < at.length; i++) {
            if (++at[i] < perms.get(i).length) return true;
            at[i] = 0;
        }
        return false;
    }
}
