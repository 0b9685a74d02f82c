package isostress.checker.sql;

import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static isostress.checker.model.IsolationLevel.READ_ATOMIC;
import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.sql.SqlHist.TRUE;
import static isostress.checker.sql.SqlHist.eq;
import static isostress.checker.sql.SqlHist.ins;
import static isostress.checker.sql.SqlHist.r;
import static isostress.checker.sql.SqlHist.row;
import static isostress.checker.sql.SqlHist.sel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RcSat}: the SAT form of Alg. 3 for histories of RC and RA readers. */
class SqlRcSatTest {

    /**
     * T3 (RC, after T0 in session 0) first misses acc:1 under v = 1, then returns T1's v = 1. T0's v = 1 is visible
     * (so) and matches, so the first statement saw a version co-after T0 that does not match: only T2's v = 2. That
     * makes T2 visible to the second statement, which read T1: T2 must commit before T1. With T1 so-before T2 that is
     * a cycle (invalid); with T2 so-before T1 it is the witness T0 T2 T1 T3. Only the rule "a chosen version is
     * visible to the later statements" tells the two apart.
     */
    static SqlHistory chosenVersionIsVisible(boolean t1First) {
        SqlHist h = new SqlHist().init("acc", "acc:1", row("v", 0))
                .txn(10, 0, 0, "rc", ins("acc", "w0", "acc:1", row("v", 1)))
                .txn(13, 0, 1, "rc", sel("acc", eq("v", 1)), sel("acc", TRUE, r("acc:1", "w1", row("v", 1))));
        if (t1First) {
            h.txn(11, 1, 0, "rc", ins("acc", "w1", "acc:1", row("v", 1)))
                    .txn(12, 1, 1, "rc", ins("acc", "w2", "acc:1", row("v", 2)));
        } else {
            h.txn(12, 1, 0, "rc", ins("acc", "w2", "acc:1", row("v", 2)))
                    .txn(11, 1, 1, "rc", ins("acc", "w1", "acc:1", row("v", 1)));
        }
        return h.build();
    }

    @Test
    void aChosenVersionIsVisibleToLaterStatements() {
        SqlResult bad = SqlCheckerTest.expect(chosenVersionIsVisible(true), READ_COMMITTED, Verdict.INVALID);
        assertEquals("unsat", bad.stats().get("rc_sat"), bad::toText);
        SqlResult good = SqlCheckerTest.expect(chosenVersionIsVisible(false), READ_COMMITTED, Verdict.VALID);
        assertEquals("sat", good.stats().get("rc_sat"), good::toText);
        SqlCheckerTest.expect(chosenVersionIsVisible(true), null, Verdict.INVALID);
    }

    /**
     * RA: T3 first returns T1's v = 1, then misses acc:1 under v = 1, so (T0's matching v = 1 being so-before) the
     * second statement saw T2's v = 2. Under RA what any statement read is visible to all of them: T2 must commit
     * before T1 (first statement) and T1 before T2 (second): invalid. Under RC the first statement does not see what
     * the second read: T0 T1 T2 T3 is a witness.
     */
    static SqlHistory chosenVersionRa() {
        return new SqlHist().init("acc", "acc:1", row("v", 0))
                .txn(10, 0, 0, "ra", ins("acc", "w0", "acc:1", row("v", 1)))
                .txn(13, 0, 1, "ra", sel("acc", TRUE, r("acc:1", "w1", row("v", 1))), sel("acc", eq("v", 1)))
                .txn(11, 1, 0, "ra", ins("acc", "w1", "acc:1", row("v", 1)))
                .txn(12, 1, 1, "ra", ins("acc", "w2", "acc:1", row("v", 2)))
                .build();
    }

    @Test
    void underRaAChosenVersionIsVisibleToEveryStatement() {
        SqlResult ra = SqlCheckerTest.expect(chosenVersionRa(), READ_ATOMIC, Verdict.INVALID);
        assertEquals("unsat", ra.stats().get("rc_sat"), ra::toText);
        SqlResult rc = SqlCheckerTest.expect(chosenVersionRa(), READ_COMMITTED, Verdict.VALID);
        assertEquals("sat", rc.stats().get("rc_sat"), rc::toText);
        SqlCheckerTest.expect(chosenVersionRa(), null, Verdict.INVALID);
    }

    /**
     * Cross-check on histories too large for the brute force: the SAT answer against the exact extension search
     * (the path RC conflicts took before), on RC and RC+RA stores, simulated and mutated.
     */
    @Test
    void agreesWithTheExtensionSearch() {
        Random rnd = new Random(7);
        int n = Integer.getInteger("isostress.sqlRcSat.n", 300);
        int valid = 0, invalid = 0;
        int compared = 0;
        List<String> bad = new ArrayList<>();
        SqlCheckOptions o = SqlCheckOptions.DEFAULTS.withTimeout(Duration.ofSeconds(5));
        for (int i = 0; i < n; i++) {
            IsolationLevel[] levels = rnd.nextBoolean() ? new IsolationLevel[]{READ_COMMITTED}
                    : new IsolationLevel[]{READ_COMMITTED, READ_ATOMIC};
            SqlGen g = new SqlGen(rnd, new SqlGen.Shape(3, 3, 5, 15, 4, 6 + rnd.nextInt(7), 2, 4,
                    levels, 0.0, 0.0, true));
            SqlHistory h = g.history();
            if (rnd.nextDouble() < 0.8) h = g.mutate(g.mutate(h));
            SqlResult sat = SqlChecker.check(h, o);
            if (sat.stats().get("rc_sat") == null) continue;
            SqlResult old;
            try {
                SqlChecker.useRcSat = false;
                old = SqlChecker.check(h, o);
            } finally {
                SqlChecker.useRcSat = true;
            }
            if (old.verdict() == Verdict.UNKNOWN) continue;
            compared++;
            if (sat.verdict() == Verdict.VALID) valid++;
            if (sat.verdict() == Verdict.INVALID) invalid++;
            if (old.verdict() != sat.verdict()) {
                SqlHistory hh = h;
                bad.add("#" + i + ": SAT " + sat.verdict() + ", search " + old.verdict() + "\n" + SqlHistoryWriter.toText(hh));
            }
        }
        System.out.println("SqlRcSatTest: " + compared + " histories through the RC SAT path compared with the "
                + "extension search (" + valid + " valid, " + invalid + " invalid); disagreements: " + bad.size());
        assertTrue(bad.isEmpty(), String.join("\n----\n", bad.subList(0, Math.min(3, bad.size()))));
        assertTrue(compared > n / 5, "too few histories took the SAT path: " + compared);
    }

    /**
     * Against the brute force on small RC / RC+RA histories, keeping those that reach the SAT path: the differential
     * test sees few invalid ones there (most mutations are refuted before, by a cycle or a missed row).
     */
    @Test
    void agreesWithTheBruteForce() {
        Random rnd = new Random(11);
        int n = Integer.getInteger("isostress.sqlRcSat.small", 8_000);
        int valid = 0, invalid = 0;
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IsolationLevel[] levels = rnd.nextBoolean() ? new IsolationLevel[]{READ_COMMITTED}
                    : new IsolationLevel[]{READ_COMMITTED, READ_ATOMIC};
            SqlGen g = new SqlGen(rnd, new SqlGen.Shape(2, 3, 3, 6, 3, 2 + rnd.nextInt(3), 1 + rnd.nextInt(2), 3,
                    levels, 0.0, 0.0));
            SqlHistory h = g.history();
            int m = 1 + rnd.nextInt(3);
            for (int k = 0; k < m; k++) h = g.mutate(h);
            IsolationLevel override = rnd.nextDouble() < 0.3 ? READ_COMMITTED : null;
            SqlResult fast = SqlChecker.check(h, SqlCheckOptions.DEFAULTS.withLevel(override));
            if (fast.stats().get("rc_sat") == null) continue;
            Boolean brute = isostress.checker.reference.SqlBruteForceChecker.check(h, override, 1_000_000);
            if (brute == null) continue;
            if (brute) valid++;
            else invalid++;
            if (fast.verdict() != (brute ? Verdict.VALID : Verdict.INVALID)) {
                SqlHistory hh = h;
                bad.add("#" + i + ": fast " + fast.verdict() + ", brute " + brute + "\n" + SqlHistoryWriter.toText(hh));
            }
        }
        System.out.println("SqlRcSatTest: " + (valid + invalid) + " small histories through the RC SAT path against the"
                + " brute force (" + valid + " valid, " + invalid + " invalid); disagreements: " + bad.size());
        assertTrue(bad.isEmpty(), String.join("\n----\n", bad.subList(0, Math.min(3, bad.size()))));
        assertTrue(invalid >= 30 && valid >= 30, "both verdicts must be represented");
    }
}
