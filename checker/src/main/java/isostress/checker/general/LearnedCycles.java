package isostress.checker.general;

import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;
import org.sat4j.specs.TimeoutException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The counterexample of {@link PolygraphSolver}'s SAT phase: the fewest learned cycles that no choice escapes. */
final class LearnedCycles {
    private LearnedCycles() {
    }

    /**
     * A minimal subset of the learned cycles that no choice escapes (deletion-based: drop a cycle whenever the rest
     * stays unsatisfiable), so that the counterexample is the smallest argument, as PolySI's interpretation step
     * aims for (§5.3).
     */
    static List<PolygraphCycle> minimalCore(int cons, List<int[]> clauses, List<PolygraphCycle> learned) {
        boolean[] keep = new boolean[clauses.size()];
        Arrays.fill(keep, true);
        for (int i = 0; i < clauses.size(); i++) {
            keep[i] = false;
            if (satisfiable(cons, clauses, keep)) keep[i] = true;
        }
        List<PolygraphCycle> out = new ArrayList<>();
        for (int i = 0; i < clauses.size(); i++) if (keep[i]) out.add(learned.get(i));
        return out;
    }

    private static boolean satisfiable(int cons, List<int[]> clauses, boolean[] keep) {
        ISolver s = SolverFactory.newDefault();
        s.newVar(cons);
        s.setTimeout(10);
        try {
            for (int i = 0; i < clauses.size(); i++) if (keep[i]) s.addClause(new VecInt(clauses.get(i)));
            return s.isSatisfiable();
        } catch (ContradictionException e) {
            return false;
        } catch (TimeoutException e) {
            return true; // keep the cycle: the core stays a valid (if not minimal) argument
        }
    }
}
