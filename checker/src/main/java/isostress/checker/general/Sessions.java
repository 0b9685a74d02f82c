package isostress.checker.general;

import isostress.checker.history.LongPairIntMap;

/**
 * The sessions of the committed transactions: one per process, numbered densely, each transaction with its position
 * in its session. Non-committed transactions get session -1.
 */
final class Sessions {
    final int count;
    final int[] session, pos;
    /** Per session, its transactions in order. */
    final int[] start, members;

    private Sessions(int count, int[] session, int[] pos, int[] start, int[] members) {
        this.count = count;
        this.session = session;
        this.pos = pos;
        this.start = start;
        this.members = members;
    }

    static Sessions of(Observations o) {
        int n = o.n;
        LongPairIntMap ids = new LongPairIntMap(64);
        int[] session = new int[n], pos = new int[n];
        int[] size = new int[16];
        int count = 0;
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) {
                session[t] = -1;
                continue;
            }
            long p = o.h.process(t);
            int s = ids.get(p, 0);
            if (s == LongPairIntMap.MISSING) {
                s = count++;
                ids.put(p, 0, s);
                if (s == size.length) size = java.util.Arrays.copyOf(size, s * 2);
            }
            session[t] = s;
            pos[t] = size[s]++;
        }
        int[] start = new int[count + 1];
        for (int s = 0; s < count; s++) start[s + 1] = start[s] + size[s];
        int[] members = new int[start[count]];
        for (int t = 0; t < n; t++) if (session[t] >= 0) members[start[session[t]] + pos[t]] = t;
        return new Sessions(count, session, pos, start, members);
    }

    /** The transaction before t in its session, or -1. */
    int previous(int t) {
        int s = session[t];
        return s < 0 || pos[t] == 0 ? -1 : members[start[s] + pos[t] - 1];
    }
}
