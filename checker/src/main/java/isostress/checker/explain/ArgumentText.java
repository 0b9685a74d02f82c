package isostress.checker.explain;

import isostress.checker.history.Outcome;
import isostress.checker.model.Argument;
import isostress.checker.model.Argument.AbortedRead;
import isostress.checker.model.Argument.CommitOrderCycle;
import isostress.checker.model.Argument.Conflict;
import isostress.checker.model.Argument.Edge;
import isostress.checker.model.Argument.Finding;
import isostress.checker.model.Argument.InitFirst;
import isostress.checker.model.Argument.IntermediateRead;
import isostress.checker.model.Argument.MissedRow;
import isostress.checker.model.Argument.NoCommitOrder;
import isostress.checker.model.Argument.OwnWriteMissed;
import isostress.checker.model.Argument.PredicateMismatch;
import isostress.checker.model.Argument.Read;
import isostress.checker.model.Argument.ReadBeforeOwnWrite;
import isostress.checker.model.Argument.ReadFrom;
import isostress.checker.model.Argument.SessionOrder;
import isostress.checker.model.Argument.SqlTxnFacts;
import isostress.checker.model.Argument.ValueMismatch;
import isostress.checker.model.Argument.Version;
import isostress.checker.model.Argument.Visible;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.List;

/**
 * An SQL history's counterexample ({@link Argument}) in sentences, for the text, DOT, JSON and HTML renderings: what
 * went wrong (its kind and a one-line message), the transactions with their statements ("Let"), and the argument up
 * to the contradiction ("However"), each commit-order edge with the reason it is forced.
 */
public final class ArgumentText {
    private ArgumentText() {
    }

    /** The SQL checker's name for what went wrong, e.g. {@code cycle in so ∪ wr ∪ saturated co}. */
    public static String kind(Finding f) {
        if (f instanceof CommitOrderCycle c) return c.saturated() ? "cycle in so ∪ wr ∪ saturated co" : "cycle in so ∪ wr";
        if (f instanceof MissedRow) return "predicate read missed a row";
        if (f instanceof NoCommitOrder) return "no consistent commit order";
        if (f instanceof AbortedRead) return "aborted read";
        if (f instanceof IntermediateRead) return "intermediate read";
        if (f instanceof ReadBeforeOwnWrite || f instanceof OwnWriteMissed) return "internal";
        if (f instanceof PredicateMismatch) return "read does not match predicate";
        if (f instanceof ValueMismatch) return "value mismatch";
        throw new IllegalArgumentException("no name for " + f);
    }

    /** One line: what contradicts the levels. */
    public static String message(Argument g) {
        Finding f = g.finding();
        if (f instanceof CommitOrderCycle) return "every commit order would need " + cycle(g);
        if (f instanceof MissedRow m) return missed(m.read(), m.row(), m.matching());
        if (f instanceof NoCommitOrder n) {
            if (n.conflicts().isEmpty()) return "no commit order satisfies every reader's level";
            return n.conflicts().size() + " predicate reads missed rows and no commit order explains all of them ("
                    + n.choices() + (n.choices() == 1 ? " choice" : " choices") + " of the versions they saw)";
        }
        if (f instanceof AbortedRead a) {
            return label(a.reader()) + " read " + a.row() + " from " + a.writeId() + ", written by " + label(a.writer())
                    + ", which " + (a.failed() ? "aborted" : "is not known to have committed");
        }
        if (f instanceof IntermediateRead i) {
            return label(i.reader()) + " read " + i.row() + " from " + i.writeId() + ", which " + label(i.writer())
                    + " overwrote itself before committing";
        }
        if (f instanceof ReadBeforeOwnWrite r) {
            return label(r.reader()) + " read its own write " + r.writeId() + " of " + r.row() + " before making it";
        }
        if (f instanceof OwnWriteMissed o) {
            return label(o.read().txn()) + "'s " + o.read().verb() + " WHERE " + o.read().predicate()
                    + " follows its own write " + o.ownWriteId() + " of " + o.row() + " = " + o.ownValue() + ", which "
                    + (o.matches() ? "matches" : "does not match") + ", but it "
                    + (o.returnedFrom() == null ? "did not return it" : "returned it from " + o.returnedFrom());
        }
        if (f instanceof PredicateMismatch p) {
            return label(p.read().txn()) + " " + p.read().verb() + " WHERE " + p.read().predicate() + " returned "
                    + p.row() + " from " + p.writeId() + " = " + p.value() + ", which does not satisfy the predicate";
        }
        if (f instanceof ValueMismatch v) {
            return label(v.reader()) + " returned " + v.row() + " from " + v.writeId() + " as " + v.returned()
                    + ", but that version is " + v.actual();
        }
        throw new IllegalArgumentException("no message for " + f);
    }

    /** "T1 = [ser, session 0] SELECT ...; UPDATE ...", one per transaction involved. */
    public static List<String> let(Argument g) {
        List<String> out = new ArrayList<>();
        for (SqlTxnFacts t : g.let()) {
            StringBuilder sb = new StringBuilder(label(t.id())).append(" = [").append(t.level().alias())
                    .append(", session ").append(t.session())
                    .append(t.outcome() == Outcome.OK ? "" : ", " + t.outcome().jepsenName()).append("] ");
            sb.append(String.join("; ", t.statements()));
            out.add(sb.toString());
        }
        return out;
    }

    /** The argument, one sentence a line, ending in the contradiction. */
    public static List<String> however(Argument g) {
        List<String> out = new ArrayList<>();
        Finding f = g.finding();
        if (f instanceof CommitOrderCycle) {
            for (Edge e : g.edges()) out.add(edge(e) + ".");
            out.add("So " + cycle(g) + " in every commit order: a contradiction!");
        } else if (f instanceof MissedRow m) {
            out.add(missed(m.read(), m.row(), m.matching()) + ".");
            out.add("Every version of " + m.row() + " it could have seen matches (the other writers commit after "
                    + label(m.read().txn()) + " in every order), so it must have returned the row: a contradiction!");
        } else if (f instanceof NoCommitOrder n) {
            for (Conflict c : n.conflicts()) out.add(conflict(c));
            out.add("No commit order satisfies every reader's axioms (each at its own level) for "
                    + (n.conflicts().isEmpty() ? "the returned rows" : n.choices() == 1 ? "this choice"
                    : "any of these " + n.choices() + " choices") + ": a contradiction!");
        } else if (f instanceof OwnWriteMissed) {
            out.add(message(g) + ": a transaction must see its own writes.");
        } else {
            out.add(message(g) + ".");
        }
        return out;
    }

    /** Why edge {@code e} of a commit-order cycle is forced. */
    public static String edge(Edge e) {
        Argument.Reason r = e.reason();
        if (r instanceof InitFirst) return "init precedes every transaction";
        if (r instanceof SessionOrder s) {
            return label(e.to()) + " follows " + label(e.from()) + " in session " + s.session() + " (so)";
        }
        if (r instanceof ReadFrom w) {
            String head = label(e.to()) + "'s " + w.read().verb() + " WHERE " + w.read().predicate();
            return head + (w.returned() ? " returned " + w.row() + " as written by " + label(e.from())
                    : " did not return " + w.row() + ", so it saw " + label(e.from()) + "'s non-matching " + w.seen())
                    + " (wr)";
        }
        Visible v = (Visible) r;
        Read rd = v.read();
        return label(rd.txn()) + " (" + rd.level().alias() + ")'s " + rd.verb() + " WHERE " + rd.predicate() + " saw "
                + v.row() + " as written by " + label(v.readFrom()) + "; " + label(e.from()) + " also writes "
                + v.row() + " and is visible to it (" + visibility(rd.level()) + "), so " + label(e.from())
                + " must commit before " + label(e.to()) + " (co)";
    }

    /** "T3" for a transaction, "init" for the initial state. */
    public static String label(long txn) {
        return txn == Argument.INIT ? "init" : "T" + txn;
    }

    /** "T1 < T2 < T1": the cycle's transactions in order, back to the first. */
    private static String cycle(Argument g) {
        StringBuilder sb = new StringBuilder();
        for (Edge e : g.edges()) sb.append(label(e.from())).append(" < ");
        if (!g.edges().isEmpty()) sb.append(label(g.edges().get(0).from()));
        return sb.toString();
    }

    /** Which writes a reader at {@code level} must see, as its axiom says. */
    private static String visibility(IsolationLevel level) {
        switch (level) {
            case READ_COMMITTED: return "RC: it precedes the reader in session order or an earlier statement read from it";
            case READ_ATOMIC: return "RA: the reader's transaction read from it or follows it in session order";
            case PREFIX: return "PC: it commits before a transaction the reader follows or read from";
            case SNAPSHOT_ISOLATION: return "SI: it commits before a transaction the reader follows or read from, or "
                    + "before a transaction writing a key the reader writes";
            default: return "SER: it commits before the reader";
        }
    }

    /** "T3 (rc)'s SELECT * FROM acct WHERE grp = 1 did not return acct:2, although T1 (w1) = {...} matches". */
    private static String missed(Read r, String row, List<Version> matching) {
        StringBuilder sb = new StringBuilder();
        sb.append(label(r.txn())).append(" (").append(r.level().alias()).append(")'s ").append(statement(r))
                .append(" WHERE ").append(r.predicate()).append(" did not return ").append(row).append(", although ");
        for (int i = 0; i < matching.size(); i++) sb.append(i > 0 ? " and " : "").append(version(matching.get(i)));
        return sb.append(matching.size() == 1 ? " matches" : " match").toString();
    }

    private static String conflict(Conflict c) {
        Read r = c.read();
        StringBuilder sb = new StringBuilder(missed(r, c.row(), c.matching())).append("; so it saw one of: ");
        for (int i = 0; i < c.nonMatching().size(); i++) sb.append(i > 0 ? ", " : "").append(version(c.nonMatching().get(i)));
        sb.append(", and under ").append(r.level().alias()).append(" the matching ")
                .append(c.matching().size() == 1 ? "version" : "versions").append(" must not be visible to it ")
                .append(r.level() == IsolationLevel.SERIALIZABLE ? "(must commit after " + label(r.txn()) + ")" : "")
                .append(" unless committed before the one it saw");
        return sb.append('.').toString();
    }

    /** "SELECT * FROM acct", "UPDATE acct" or "DELETE FROM acct". */
    private static String statement(Read r) {
        switch (r.verb()) {
            case "SELECT": return "SELECT * FROM " + r.table();
            case "UPDATE": return "UPDATE " + r.table();
            default: return "DELETE FROM " + r.table();
        }
    }

    /** "T1 (w1) = {...}", or "init = {...}". */
    private static String version(Version v) {
        return label(v.writer()) + (v.writer() == Argument.INIT ? "" : " (" + v.writeId() + ")") + " = " + v.value();
    }
}
