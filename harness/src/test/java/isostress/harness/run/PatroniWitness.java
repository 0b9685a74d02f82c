package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.LostWrite;
import isostress.checker.model.WitnessReport;
import isostress.checker.witness.CaptureLog;
import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessReader;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a Patroni run with {@code check.witness} must show of its commit log, whatever faults it had: the log read
 * from each member while it was a primary, each line labelled with the member and its timeline, every member's time
 * as a primary accounted for ({@code log} lines), a join that finds nothing the database did not do, and the final
 * reads' lost writes citing the log.
 */
final class PatroniWitness {
    private PatroniWitness() {
    }

    /**
     * Each acknowledged transaction names the member it ran on, and the commit logs say the same: the member whose
     * log has its appends. A session on the cluster's URL follows the primary, so the member it was given at the
     * start says nothing about where a transaction ran after a failover; the connection's server does.
     */
    static void assertEachTransactionNamesTheMemberWhoseLogHasIt(RunOutcome o) throws Exception {
        Witness log = WitnessReader.read(o.dir().witness());
        Map<List<Long>, Set<String>> committedOn = new HashMap<>();
        for (int t = 0; t < log.size(); t++) {
            for (MicroOp m : log.txn(t).writes()) {
                if (m instanceof MicroOp.Append a) {
                    committedOn.computeIfAbsent(List.of(a.key(), a.value()), k -> new HashSet<>())
                            .add(log.node(t));
                }
            }
        }
        History h = HistoryFormat.JSONL.read(o.dir().history());
        Map<String, Integer> named = new TreeMap<>();
        int compared = 0;
        for (Txn t : h.txns()) {
            if (t.outcome() != Outcome.OK) continue;
            for (MicroOp m : t.ops()) {
                if (!(m instanceof MicroOp.Append a)) continue;
                Set<String> members = committedOn.get(List.of(a.key(), a.value()));
                if (members == null) break; // not in any log read (a lost write's is on no surviving one)
                assertTrue(members.contains(t.node()), "line " + t.line() + ": T" + t.id() + " names " + t.node()
                        + ", its append of " + a.value() + " to key " + a.key() + " is in the log of " + members);
                named.merge(t.node(), 1, Integer::sum);
                compared++;
                break;
            }
        }
        System.out.println("patroni witness: acknowledged transactions per member, as the history and the logs name "
                + "them: " + named);
        assertTrue(compared > 100, compared + " transactions compared with the logs");
        assertTrue(named.size() >= 2, "the transactions ran on one member only: " + named);
    }

    /** Asserts the above of {@code o}, a run on a Patroni cluster whose faults moved the primary at least once. */
    static void assertFollowedThePrimary(RunOutcome o) throws Exception {
        WitnessReport w = o.result().witness();
        assertNotNull(w, "the run was not joined with its commit log: " + o.error());
        System.out.println("patroni witness: " + w.summary());
        Witness log = WitnessReader.read(o.dir().witness());
        Set<String> logs = new HashSet<>();
        for (int t = 0; t < log.size(); t++) {
            assertTrue(log.node(t).matches("n[123]"), "line " + log.line(t) + ": node " + log.node(t));
            assertTrue(log.timeline(t) >= 1, "line " + log.line(t) + " names no timeline");
            logs.add(log.node(t) + " timeline " + log.timeline(t));
        }
        System.out.println("patroni witness: logs read " + logs + "; version order " + o.result().stats()
                .get("version_order"));
        for (String l : java.nio.file.Files.readAllLines(o.dir().witness())) {
            if (l.startsWith("{\"log\"")) System.out.println("patroni witness: " + l);
        }
        // Commits on no surviving timeline: a log's lines past where the final timeline's ancestry left it (a
        // zombie's acknowledged commits, read under its own name and old timeline).
        CaptureLog last = log.captureLogs().stream().filter(c -> c.primaryTo() == Long.MAX_VALUE)
                .max(java.util.Comparator.comparingLong(CaptureLog::timeline)).orElseThrow();
        Map<String, Integer> diverged = new TreeMap<>();
        for (int t = 0; t < log.size(); t++) {
            long at = last.switchPoint(log.timeline(t));
            if (log.timeline(t) != last.timeline() && (at < 0 || log.pos(t) > at)) {
                diverged.merge(log.node(t) + " timeline " + log.timeline(t), 1, Integer::sum);
            }
        }
        System.out.println("patroni witness: commits on no surviving timeline " + diverged + " (final " + last.node()
                + " timeline " + last.timeline() + ")");
        // The primary moved: the commits of at least two members' times as a primary are in it, on two timelines.
        assertTrue(logs.size() >= 2, "one log only: " + logs);
        assertTrue(log.timeline(log.size() - 1) >= 2 || logs.stream().anyMatch(s -> !s.endsWith("timeline 1")), logs
                .toString());
        Set<String> accounted = new HashSet<>();
        long stillPrimary = 0;
        for (CaptureLog c : log.captureLogs()) {
            accounted.add(c.node() + " timeline " + c.timeline());
            if (c.primaryTo() == Long.MAX_VALUE) stillPrimary++;
            if (c.timeline() > 1) assertFalse(c.branches().isEmpty(), "timeline " + c.timeline() + " has no history");
        }
        assertTrue(accounted.containsAll(logs), "logs read " + logs + ", accounted for " + accounted);
        assertTrue(stillPrimary >= 1, "no member was read to the end as the primary");
        // Nothing the database did not do: every acknowledged commit the log lacks ran while some log was not read.
        assertEquals(0, w.findingCount(), w.summary() + "; " + w.findings());
        assertTrue(w.matched() > 100, w.summary());
        if (o.result().lostWrites() == null) return;
        for (LostWrite l : o.result().lostWrites().findings()) {
            System.out.println("patroni witness: " + l.explanation());
            assertTrue(l.explanation().contains("commit log has it (timeline ")
                    || l.explanation().contains("No captured commit log holds it"), l.explanation());
        }
    }
}
