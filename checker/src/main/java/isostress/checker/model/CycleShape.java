package isostress.checker.model;

import java.util.List;

/**
 * Elle's classification of a dependency cycle by its edge kinds (Kingsbury &amp; Alvaro 2020, §3; Adya 1999 §4):
 * no rw edge: G0 when every edge is ww, else G1c; exactly one rw: G-single; several, none adjacent (cyclically):
 * G-nonadjacent; otherwise G2-item. A cycle that needs real-time edges is {@code -realtime}, else one that needs
 * session-order edges is {@code -process}.
 *
 * @param type    the kind
 * @param variant the suffix
 */
public record CycleShape(AnomalyType type, CycleVariant variant) {

    /** Classifies the cycle whose edges, in order, have kinds {@code kinds}. */
    public static CycleShape of(List<EdgeKind> kinds) {
        int rw = 0;
        boolean allWw = true, rt = false, so = false, adjacent = false;
        int k = kinds.size();
        for (int i = 0; i < k; i++) {
            EdgeKind e = kinds.get(i);
            if (e == EdgeKind.RW) {
                rw++;
                if (kinds.get((i + 1) % k) == EdgeKind.RW && k > 1) adjacent = true;
            }
            if (e != EdgeKind.WW) allWw = false;
            if (e == EdgeKind.RT) rt = true;
            if (e == EdgeKind.SO) so = true;
        }
        AnomalyType type;
        if (rw == 0) type = allWw ? AnomalyType.G0 : AnomalyType.G1C;
        else if (rw == 1) type = AnomalyType.G_SINGLE;
        else if (!adjacent) type = AnomalyType.G_NONADJACENT;
        else type = AnomalyType.G2_ITEM;
        CycleVariant variant = rt ? CycleVariant.REALTIME : so ? CycleVariant.PROCESS : CycleVariant.NONE;
        return new CycleShape(type, variant);
    }
}
