package isostress.checker.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The isolation levels isostress checks, and the lattice between them.
 *
 * <p>RC, RA, CC, PC, SI and SER are the axiomatic definitions of Biswas &amp; Enea, "On the Complexity of Checking
 * Transactional Consistency" (OOPSLA 2019), §2.2, Table 1: each asks for a commit order that contains session order
 * and read-from and satisfies the level's axiom. They include session guarantees (so), as in Cerone et al. 2015.
 * SSER is SER whose commit order also contains real-time order (MTC, Def. 4). LIN is linearizability of each key's
 * operations (Herlihy &amp; Wing 1990; MTC §II-F), a per-object property.
 *
 * <p>PSI, Parallel Snapshot Isolation, is Sovran, Power, Aguilera and Li, "Transactional storage for geo-replicated
 * systems" (SOSP 2011, §3): each transaction reads a causally consistent snapshot, and two transactions that write a
 * common key are ordered. In the axioms of Cerone, Bernardi and Gotsman, "A Framework for Transactional Consistency
 * Models with Atomic Visibility" (CONCUR 2015, §4): PSI = INT ∧ EXT ∧ SESSION ∧ TRANSVIS ∧ NOCONFLICT, while
 * SI = INT ∧ EXT ∧ SESSION ∧ PREFIX ∧ NOCONFLICT and causal consistency = INT ∧ EXT ∧ SESSION ∧ TRANSVIS. With a
 * known version order, a history is PSI iff ((SO ∪ WR ∪ WW)+ ; RW?) is irreflexive (Cerone &amp; Gotsman,
 * "Analysing Snapshot Isolation", PODC 2016 / J.ACM 2018, §4): no dependency cycle with at most one anti-dependency.
 */
public enum IsolationLevel {
    READ_COMMITTED("read-committed", "rc"),
    READ_ATOMIC("read-atomic", "ra"),
    CAUSAL("causal", "cc"),
    PREFIX("prefix", "pc"),
    PARALLEL_SNAPSHOT_ISOLATION("parallel-snapshot-isolation", "psi"),
    SNAPSHOT_ISOLATION("snapshot-isolation", "si"),
    SERIALIZABLE("serializable", "ser"),
    LINEARIZABLE("linearizable", "lin"),
    STRICT_SERIALIZABLE("strict-serializable", "sser");

    /**
     * Direct implications, stronger to weaker. Sources: B&amp;E Lemma 2.4 (Causal ⇒ RA ⇒ RC, Prefix ⇒ Causal,
     * Serializability ⇒ Prefix ∧ Conflict, and SI = Prefix ∧ Conflict); SSER ⇒ SER by definition (its commit order
     * is one SER accepts); SSER ⇒ LIN because a strictly serializable history projected on one key is linearizable
     * (Herlihy &amp; Wing: linearizability is local). LIN implies none of the transactional levels.
     * SI ⇒ PSI ⇒ CC (Cerone et al. 2015, §4: PREFIX implies TRANSVIS, and PSI adds NOCONFLICT to causal consistency).
     * PSI and PC are incomparable: PC allows a lost update, which NOCONFLICT forbids (B&amp;E Fig. 7c, PC holds and
     * SI fails); PSI allows a long fork, which PREFIX forbids (Sovran et al. §3 allow it; B&amp;E Fig. 7a: not PC).
     */
    private static final Map<IsolationLevel, Set<IsolationLevel>> DIRECTLY_IMPLIES = new EnumMap<>(Map.of(
            READ_COMMITTED, EnumSet.noneOf(IsolationLevel.class),
            READ_ATOMIC, EnumSet.of(READ_COMMITTED),
            CAUSAL, EnumSet.of(READ_ATOMIC),
            PREFIX, EnumSet.of(CAUSAL),
            PARALLEL_SNAPSHOT_ISOLATION, EnumSet.of(CAUSAL),
            SNAPSHOT_ISOLATION, EnumSet.of(PREFIX, PARALLEL_SNAPSHOT_ISOLATION),
            SERIALIZABLE, EnumSet.of(SNAPSHOT_ISOLATION),
            LINEARIZABLE, EnumSet.noneOf(IsolationLevel.class),
            STRICT_SERIALIZABLE, EnumSet.of(SERIALIZABLE, LINEARIZABLE)));

    private final String cliName;
    private final String alias;

    IsolationLevel(String cliName, String alias) {
        this.cliName = cliName;
        this.alias = alias;
    }

    /** The name on the command line and in results, e.g. {@code snapshot-isolation}. */
    public String cliName() {
        return cliName;
    }

    /** The short alias, e.g. {@code si}. */
    public String alias() {
        return alias;
    }

    /** True when every history valid at this level is valid at {@code other} (reflexive). */
    public boolean implies(IsolationLevel other) {
        if (this == other) return true;
        for (IsolationLevel d : DIRECTLY_IMPLIES.get(this)) if (d.implies(other)) return true;
        return false;
    }

    /** The levels in {@code violated} that imply no other level in it: the weakest violated ones. */
    public static List<IsolationLevel> weakest(Collection<IsolationLevel> violated) {
        List<IsolationLevel> out = new ArrayList<>();
        for (IsolationLevel l : violated) {
            boolean minimal = true;
            for (IsolationLevel o : violated) if (o != l && l.implies(o)) minimal = false;
            if (minimal && !out.contains(l)) out.add(l);
        }
        out.sort(null);
        return out;
    }

    /** The level for a name or alias (case-insensitive), or null. */
    public static IsolationLevel byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (IsolationLevel l : values()) if (l.cliName.equals(n) || l.alias.equals(n)) return l;
        return null;
    }

    /** Every accepted name, for messages. */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (IsolationLevel l : values()) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(l.cliName).append(" (").append(l.alias).append(')');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
