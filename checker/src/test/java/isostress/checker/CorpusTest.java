package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static isostress.checker.model.IsolationLevel.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public bug histories of the corpus (test resources {@code corpus/}, copied from the peers' repositories) with
 * their published verdicts ({@code corpus/README.md}). The
 * mini-transaction ones go to the MTC-based checkers, the general ones (blind writes, lists) to the general checker.
 */
class CorpusTest {
    static final Path CORPUS = Path.of(System.getProperty("isostress.corpus", "src/test/resources/corpus"));

    /** file -> level -> expected verdict. */
    static final Map<String, Map<IsolationLevel, Verdict>> MINI = Map.of(
            "text/mtc-galera-lost-update.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-causality-violation.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-fractured-reads.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-long-fork.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-lost-update.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-session-guarantee.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/mtc-anomaly-write-skew.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.VALID, SERIALIZABLE, Verdict.INVALID));

    /**
     * Weakest level each MTC example violates (Biswas &amp; Enea's axioms). MTC's fractured-read file has T2 read
     * T1's x before the initial y: reading an older y after a newer x already breaks the Read Committed axiom
     * (a read may not return a value older than what earlier reads of the transaction saw); read the other way round
     * it would break read atomic only (Fig5AnomalyTest (j)).
     */
    static final Map<String, IsolationLevel> WEAKEST = Map.of(
            "text/mtc-anomaly-causality-violation.txt", CAUSAL,
            "text/mtc-anomaly-fractured-reads.txt", READ_COMMITTED,
            "text/mtc-anomaly-long-fork.txt", PREFIX,
            // A lost update breaks NOCONFLICT: parallel snapshot isolation already, prefix consistency not.
            "text/mtc-anomaly-lost-update.txt", PARALLEL_SNAPSHOT_ISOLATION,
            "text/mtc-anomaly-session-guarantee.txt", READ_ATOMIC,
            "text/mtc-anomaly-write-skew.txt", SERIALIZABLE);

    /** The general-transaction files: published verdicts, and the checker that must take them. */
    static final Map<String, Map<IsolationLevel, Verdict>> GENERAL = Map.of(
            "text/polysi-galera-lost-update.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID, SERIALIZABLE, Verdict.INVALID),
            "text/polysi-yugabyte-si-violation.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/isovista-dgraph-si-violation.txt", Map.of(SNAPSHOT_ISOLATION, Verdict.INVALID),
            "text/isovista-yugabyte-causal-violation.txt", Map.of(CAUSAL, Verdict.INVALID,
                    SNAPSHOT_ISOLATION, Verdict.INVALID, SERIALIZABLE, Verdict.INVALID),
            "text/isovista-postgres-12.3-ser-bug.txt", Map.of(SERIALIZABLE, Verdict.INVALID,
                    SNAPSHOT_ISOLATION, Verdict.VALID),
            "elle/si-without-g-single.edn", Map.of(SERIALIZABLE, Verdict.INVALID, SNAPSHOT_ISOLATION, Verdict.VALID),
            "elle/paper-example.edn", Map.of(SERIALIZABLE, Verdict.INVALID),
            "elle/huge-scc.edn", Map.of(STRICT_SERIALIZABLE, Verdict.INVALID));

    /** An anomaly name each general file's check must report (Elle's names). */
    static final Map<String, String> GENERAL_ANOMALY = Map.of(
            "text/polysi-galera-lost-update.txt", "lost-update",
            "elle/si-without-g-single.edn", "G2-item",
            "elle/paper-example.edn", "G-single",
            "elle/huge-scc.edn", "-realtime");

    @TestFactory
    Stream<DynamicTest> miniTransactionHistoriesGetTheirPublishedVerdicts() {
        assertTrue(Files.isDirectory(CORPUS), "corpus not found at " + CORPUS.toAbsolutePath());
        return MINI.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Path f = CORPUS.resolve(e.getKey());
            History h = HistoryFormat.detect(f).read(f);
            for (Map.Entry<IsolationLevel, Verdict> exp : e.getValue().entrySet()) {
                Result r = Checker.check(h, List.of(exp.getKey()), CheckOptions.DEFAULTS);
                assertEquals(exp.getValue(), r.level(exp.getKey()).verdict(), e.getKey() + " at " + exp.getKey()
                        + ": " + r.level(exp.getKey()).reason());
            }
            if (WEAKEST.containsKey(e.getKey())) {
                Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
                assertEquals(List.of(WEAKEST.get(e.getKey())), r.weakestViolated(), e.getKey());
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> generalHistoriesGetTheirPublishedVerdicts() {
        return GENERAL.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Path f = CORPUS.resolve(e.getKey());
            History h = HistoryFormat.detect(f).read(f);
            // Jepsen's fault events (:process :nemesis; 94 in huge-scc.edn) are read and not checked.
            assertEquals(e.getKey().equals("elle/huge-scc.edn") ? 94 : 0, h.sideEvents().size(), e.getKey());
            String shape = e.getKey().startsWith("elle/") ? Checker.LIST_APPEND : Checker.RW_REGISTER;
            for (Map.Entry<IsolationLevel, Verdict> exp : e.getValue().entrySet()) {
                Result r = Checker.check(h, List.of(exp.getKey()), CheckOptions.DEFAULTS);
                assertEquals(shape, r.shape(), e.getKey());
                assertEquals(exp.getValue(), r.level(exp.getKey()).verdict(), e.getKey() + " at " + exp.getKey()
                        + ": " + r.level(exp.getKey()).reason());
                String name = GENERAL_ANOMALY.get(e.getKey());
                if (name != null && exp.getValue() == Verdict.INVALID) {
                    assertTrue(r.anomalies().stream().anyMatch(a -> a.name().contains(name)),
                            e.getKey() + ": no " + name + " among " + r.anomalyCounts());
                }
            }
        }));
    }
}
