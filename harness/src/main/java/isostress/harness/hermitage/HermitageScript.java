package isostress.harness.hermitage;

import java.util.List;
import java.util.function.Predicate;

import static isostress.harness.hermitage.HermitageStep.t;

/**
 * One Hermitage script (Kleppmann's two-session scripts, github.com/ept/hermitage, as re-run by Jepsen): the steps in
 * the order they are issued, and the anomaly test over what they returned. The anomaly is possible when a run
 * shows it with every transaction that matters committed; it is prevented when the database blocks, aborts or
 * returns values that admit a serial order.
 *
 * @param name     Hermitage's name (G0, G1a, ..., G2), with a suffix for a variant
 * @param column   the table column it decides
 * @param readOnly true when the transaction whose view is tested only reads (MySQL's R/O distinction)
 * @param steps    the script
 * @param anomaly  true when the run shows the anomaly
 */
public record HermitageScript(String name, String column, boolean readOnly, List<HermitageStep> steps,
                            Predicate<Run> anomaly) {

    /** A finished run: each step's result and whether each session committed. */
    public record Run(List<StepResult> results, boolean[] committed) {
        StepResult at(int i) {
            return results.get(i);
        }

        boolean committed(int session) {
            return committed[session];
        }
    }

    /** The tests, in the order of the published table's columns. */
    public static List<HermitageScript> all() {
        return List.of(
                // G0 write cycles: T2 overwrites both rows after T1; a final state mixing the two is the anomaly.
                new HermitageScript("G0", "G0", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "update test set value = 11 where id = 1"),
                        t(2, "update test set value = 12 where id = 1"),
                        t(1, "update test set value = 21 where id = 2"), t(1, "commit"),
                        t(2, "update test set value = 22 where id = 2"), t(2, "commit"),
                        t(3, "begin"), t(3, "select id, value from test"), t(3, "commit")),
                        r -> r.committed(1) && r.committed(2) && mixed(r.at(9))),
                // G1a aborted read: T2 must never see T1's aborted 101.
                new HermitageScript("G1a", "G1a", true, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "update test set value = 101 where id = 1"), t(2, "select id, value from test"),
                        t(1, "rollback"), t(2, "select id, value from test"), t(2, "commit")),
                        r -> seen(r.at(3), 1, 101) || seen(r.at(5), 1, 101)),
                // G1b intermediate read: T2 must never see T1's intermediate 101.
                new HermitageScript("G1b", "G1b", true, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "update test set value = 101 where id = 1"), t(2, "select id, value from test"),
                        t(1, "update test set value = 11 where id = 1"), t(1, "commit"),
                        t(2, "select id, value from test"), t(2, "commit")),
                        r -> seen(r.at(3), 1, 101) || seen(r.at(6), 1, 101)),
                // G1c circular information flow: each sees the other's uncommitted write.
                new HermitageScript("G1c", "G1c", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "update test set value = 11 where id = 1"),
                        t(2, "update test set value = 22 where id = 2"),
                        t(1, "select id, value from test where id = 2"), t(2, "select id, value from test where id = 1"),
                        t(1, "commit"), t(2, "commit")),
                        r -> seen(r.at(4), 2, 22) && seen(r.at(5), 1, 11)),
                // OTV observed transaction vanishes: T3 sees T2's write to 1, then T1's older write to 2.
                new HermitageScript("OTV", "OTV", true, List.of(t(1, "begin"), t(2, "begin"), t(3, "begin"),
                        t(1, "update test set value = 11 where id = 1"),
                        t(1, "update test set value = 19 where id = 2"),
                        t(2, "update test set value = 12 where id = 1"), t(1, "commit"),
                        t(3, "select id, value from test where id = 1"),
                        t(2, "update test set value = 18 where id = 2"),
                        t(3, "select id, value from test where id = 2"), t(2, "commit"),
                        t(3, "select id, value from test where id = 2"),
                        t(3, "select id, value from test where id = 1"), t(3, "commit")),
                        HermitageScript::transactionVanishes),
                // PMP predicate many preceders, read-only: T1's predicate read sees T2's committed insert.
                new HermitageScript("PMP", "PMP", true, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where value = 30"),
                        t(2, "insert into test (id, value) values (3, 30)"), t(2, "commit"),
                        t(1, "select id, value from test where mod(value, 3) = 0"), t(1, "commit")),
                        r -> r.committed(2) && r.at(5).ok() && r.at(5).value(3) != null),
                // PMP with a write predicate (Hermitage's "PMP write predicates"): T1 raises every value by 10; T2,
                // which has read the table, deletes the rows with value 20 and still finds a row with value 20.
                new HermitageScript("PMP-write", "PMP", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "update test set value = value + 10"), t(2, "select id, value from test where value = 20"),
                        t(2, "delete from test where value = 20"), t(1, "commit"),
                        t(2, "select id, value from test where value = 20"), t(2, "commit")),
                        r -> r.committed(1) && r.committed(2) && r.at(6).ok() && !r.at(6).ids().isEmpty()),
                // P4 lost update: both read 10 and both write 11 and commit.
                new HermitageScript("P4", "P4", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where id = 1"), t(2, "select id, value from test where id = 1"),
                        t(1, "update test set value = 11 where id = 1"),
                        t(2, "update test set value = 11 where id = 1"), t(1, "commit"), t(2, "commit")),
                        r -> r.committed(1) && r.committed(2) && r.at(5).ok() && r.at(5).updated() == 1),
                // G-single read skew, read-only T1: it sees 1 before T2 and 2 after.
                new HermitageScript("G-single", "G-single", true, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where id = 1"), t(2, "select id, value from test"),
                        t(2, "update test set value = 12 where id = 1"),
                        t(2, "update test set value = 18 where id = 2"), t(2, "commit"),
                        t(1, "select id, value from test where id = 2"), t(1, "commit")),
                        r -> r.committed(2) && seen(r.at(2), 1, 10) && seen(r.at(7), 2, 18)),
                // G-single with a write: T1 read 1 before T2, its delete of value 20 sees T2's 18.
                new HermitageScript("G-single-write", "G-single", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where id = 1"), t(2, "select id, value from test"),
                        t(2, "update test set value = 12 where id = 1"),
                        t(2, "update test set value = 18 where id = 2"), t(2, "commit"),
                        t(1, "delete from test where value = 20"), t(1, "commit")),
                        r -> r.committed(1) && r.committed(2) && seen(r.at(2), 1, 10) && r.at(7).ok()
                                && r.at(7).updated() == 0),
                // G2-item write skew: both read both rows, each updates one, both commit.
                new HermitageScript("G2-item", "G2-item", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where id in (1, 2)"),
                        t(2, "select id, value from test where id in (1, 2)"),
                        t(1, "update test set value = 11 where id = 1"),
                        t(2, "update test set value = 21 where id = 2"), t(1, "commit"), t(2, "commit")),
                        r -> r.committed(1) && r.committed(2)),
                // G2 anti-dependency cycles over a predicate: both see no multiple of 3 among new rows, both insert.
                new HermitageScript("G2", "G2", false, List.of(t(1, "begin"), t(2, "begin"),
                        t(1, "select id, value from test where mod(value, 3) = 0"),
                        t(2, "select id, value from test where mod(value, 3) = 0"),
                        t(1, "insert into test (id, value) values (3, 30)"),
                        t(2, "insert into test (id, value) values (4, 42)"), t(1, "commit"), t(2, "commit")),
                        r -> r.committed(1) && r.committed(2)));
    }

    /** The final state is neither T1-then-T2 (12, 22) nor T2-then-T1 (11, 21). */
    private static boolean mixed(StepResult s) {
        if (!s.ok()) return false;
        Integer a = s.value(1), b = s.value(2);
        return !(Integer.valueOf(12).equals(a) && Integer.valueOf(22).equals(b))
                && !(Integer.valueOf(11).equals(a) && Integer.valueOf(21).equals(b));
    }

    private static boolean seen(StepResult s, int id, int value) {
        return s.ok() && Integer.valueOf(value).equals(s.value(id));
    }

    /**
     * OTV: one of T3's reads (steps 7, 9, 11, 12) shows T2's write (1 = 12, 2 = 18) and a later one shows a value T2
     * overwrote (1 = 11, 2 = 19): T2 was observed and then vanished.
     */
    private static boolean transactionVanishes(Run r) {
        int[] reads = {7, 9, 11, 12};
        for (int i = 0; i < reads.length; i++) {
            StepResult a = r.at(reads[i]);
            if (!(seen(a, 1, 12) || seen(a, 2, 18))) continue;
            for (int j = i + 1; j < reads.length; j++) {
                StepResult b = r.at(reads[j]);
                if (seen(b, 1, 11) || seen(b, 2, 19)) return true;
            }
        }
        return false;
    }
}
