package isostress.checker.model;

import java.util.List;

/**
 * Recognises Long Fork among G-nonadjacent cycles (Sovran, Power, Aguilera, Li, "Transactional storage for
 * geo-replicated systems", SOSP 2011, §3, the anomaly PSI allows and SI forbids; Jepsen's analysis of Amazon RDS for
 * PostgreSQL 17.4 names replica reads of this shape long fork): two writers W1, W2 of different keys x, y and two
 * readers, R1 seeing W1 but not W2, R2 seeing W2 but not W1, i.e. the cycle
 * {@code W1 -wr(x)-> R1 -rw(y)-> W2 -wr(y)-> R2 -rw(x)-> W1} in any rotation. Only this exact shape is named: a
 * cycle through session order or longer paths stays G-nonadjacent.
 */
public final class LongFork {
    private LongFork() {
    }

    /** True when {@code steps}, a cycle in order, is a long fork. */
    public static boolean matches(List<Step> steps) {
        if (steps.size() != 4) return false;
        for (int r = 0; r < 4; r++) {
            Step w1r1 = steps.get(r), r1w2 = steps.get((r + 1) % 4), w2r2 = steps.get((r + 2) % 4),
                    r2w1 = steps.get((r + 3) % 4);
            if (w1r1.kind() != EdgeKind.WR || r1w2.kind() != EdgeKind.RW || w2r2.kind() != EdgeKind.WR
                    || r2w1.kind() != EdgeKind.RW) continue;
            Long x = w1r1.key(), y = w2r2.key();
            if (x == null || y == null || x.equals(y)) return false;
            if (!x.equals(r2w1.key()) || !y.equals(r1w2.key())) return false;
            int w1 = w1r1.from(), r1 = w1r1.to(), w2 = w2r2.from(), r2 = w2r2.to();
            return w1 != w2 && w1 != r1 && w1 != r2 && r1 != w2 && r1 != r2 && w2 != r2;
        }
        return false;
    }

    /** {@code type}, or {@link AnomalyType#LONG_FORK} when it is G-nonadjacent and {@code steps} has that shape. */
    public static AnomalyType name(AnomalyType type, List<Step> steps) {
        return type == AnomalyType.G_NONADJACENT && matches(steps) ? AnomalyType.LONG_FORK : type;
    }
}
