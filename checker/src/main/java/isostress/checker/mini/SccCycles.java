package isostress.checker.mini;

import isostress.checker.graph.Acyclicity;
import isostress.checker.graph.Csr;
import isostress.checker.graph.CycleSearch;
import isostress.checker.graph.TarjanScc;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Step;

import java.util.List;

/**
 * Reports the cycles of a graph one strongly connected component at a time: Tarjan's SCCs, then a short cycle per
 * cyclic component (Elle §4.2: one cycle explains a component; the component itself is the full set of
 * transactions involved). Components are searched until the anomaly limits are reached; the rest are counted.
 */
final class SccCycles {
    /** Turns a cycle (its first node, and the edge positions taken) into steps. */
    interface StepMaker {
        List<Step> steps(int start, int[] positions);
    }

    /** Turns steps into an anomaly. */
    interface Namer {
        Anomaly name(List<Step> steps);
    }

    /** Nodes to start a search from: those {@code >= firstEligible} are skipped (e.g. time nodes). */
    static int report(Csr csr, int eligibleBelow, MiniContext ctx, StepMaker maker, Namer namer) {
        if (Acyclicity.isAcyclic(csr)) return 0;
        TarjanScc scc = TarjanScc.of(csr);
        if (!scc.anyCycle()) return 0;
        // Bucket the nodes of cyclic components so each component's members are at hand.
        int[] start = new int[scc.count + 1];
        for (int u = 0; u < csr.n; u++) {
            if (u < eligibleBelow && scc.cyclic(scc.comp[u])) start[scc.comp[u] + 1]++;
        }
        for (int c = 0; c < scc.count; c++) start[c + 1] += start[c];
        int[] members = new int[start[scc.count]];
        int[] fill = java.util.Arrays.copyOf(start, scc.count);
        for (int u = 0; u < csr.n; u++) {
            if (u < eligibleBelow && scc.cyclic(scc.comp[u])) members[fill[scc.comp[u]]++] = u;
        }
        CycleSearch search = new CycleSearch(csr, scc.comp);
        int cyclic = 0;
        int searched = 0;
        int searchLimit = Math.max(50, ctx.options().anomaliesPerType() * 20);
        for (int c = 0; c < scc.count; c++) {
            if (!scc.cyclic(c) || start[c] == start[c + 1]) continue;
            cyclic++;
            if (searched >= searchLimit) continue;
            searched++;
            int size = start[c + 1] - start[c];
            int[] starts = java.util.Arrays.copyOfRange(members, start[c], start[c] + Math.min(size, 32));
            int[] positions = search.shortest(starts, ctx.options().cycleSearchBudget());
            if (positions == null) continue;
            int s0 = csr.source(positions[0]);
            ctx.anomalies().add(namer.name(maker.steps(s0, positions)));
        }
        return cyclic;
    }
}
