package isostress.checker.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Argument;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Premise;
import isostress.checker.model.Result;
import isostress.checker.model.Step;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessReport;
import isostress.checker.model.WitnessTxn;

import java.util.List;

/** A {@link Result} as JSON, for {@code --json} and results.json. */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultJson() {
    }

    public static ObjectNode toJson(Result r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("verdict", r.verdict().jsonName());
        root.put("shape", r.shape());
        ArrayNode req = root.putArray("requested");
        r.requested().forEach(l -> req.add(l.cliName()));
        ArrayNode weakest = root.putArray("weakest_violated");
        r.weakestViolated().forEach(l -> weakest.add(l.cliName()));
        ObjectNode levels = root.putObject("levels");
        for (LevelResult l : r.levels()) {
            ObjectNode o = levels.putObject(l.name());
            o.put("verdict", l.verdict().jsonName());
            o.put("reason", l.reason());
            o.put("algorithm", l.algorithm());
        }
        ObjectNode counts = root.putObject("anomaly_counts");
        r.anomalyCounts().forEach(counts::put);
        ArrayNode as = root.putArray("anomalies");
        for (Anomaly a : r.anomalies()) as.add(anomaly(a));
        root.put("anomalies_omitted", r.anomaliesOmitted());
        root.set("stats", MAPPER.valueToTree(r.stats()));
        if (r.witness() != null) root.set("witness", witness(r.witness()));
        if (r.lostWrites() != null) root.set("final_reads", finalReads(r.lostWrites()));
        return root;
    }

    /** What the final reads showed: writes judged, how many lost, and the first lost ones. */
    public static ObjectNode finalReads(isostress.checker.model.LostWriteReport l) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("writes_judged", l.writes());
        o.put("lost_write", l.lost());
        ArrayNode fs = o.putArray("findings");
        for (isostress.checker.model.LostWrite w : l.findings()) {
            ObjectNode f = fs.addObject();
            f.put("name", isostress.checker.model.LostWrite.NAME);
            f.put("explanation", w.explanation());
            f.set("txn", txn(w.writer()));
            f.set("write", op(w.write(), java.util.Map.of()));
            f.set("read", txn(w.read()));
            if (w.primary() != null) f.put("primary", w.primary());
        }
        return o;
    }

    /** What the join with the database's commit log found: its counts and its findings (docs/witness.md). */
    public static ObjectNode witness(WitnessReport w) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("source", w.source());
        o.put("transactions", w.transactions());
        o.put("matched", w.matched());
        o.put("info_committed", w.infoCommitted());
        o.put("info_aborted", w.infoAborted());
        o.put("lost_write", w.lostWrite());
        o.put("split_commit", w.splitCommit());
        o.put("failed_but_committed", w.failedButCommitted());
        o.put("unrecorded_write", w.unrecordedWrite());
        if (w.inCaptureGap() > 0) o.put("in_capture_gap", w.inCaptureGap());
        ArrayNode fs = o.putArray("findings");
        for (WitnessFinding f : w.findings()) fs.add(finding(f));
        return o;
    }

    /** One witness finding: its name, the sentences, the transaction and the log transactions that are evidence. */
    public static ObjectNode finding(WitnessFinding f) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("name", f.name());
        o.put("history", WitnessText.history(f));
        o.put("explanation", WitnessText.sentence(f));
        if (f.txn() != null) o.set("txn", txn(f.txn(), f.keyNames()));
        ArrayNode ws = o.putArray("writes");
        for (MicroOp m : f.writes()) ws.add(op(m, f.keyNames()));
        ArrayNode log = o.putArray("log");
        for (WitnessTxn l : f.log()) {
            ObjectNode lo = log.addObject();
            lo.put("node", l.node());
            if (l.timeline() >= 0) lo.put("timeline", l.timeline());
            lo.put("pos", l.pos());
            lo.put("txid", l.txid());
            if (l.line() > 0) lo.put("line", l.line());
            ArrayNode lw = lo.putArray("writes");
            for (MicroOp m : l.writes()) lw.add(op(m, f.keyNames()));
        }
        return o;
    }

    public static String toString(Result r) {
        try {
            return MAPPER.writeValueAsString(toJson(r));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode anomaly(Anomaly a) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("name", a.name());
        o.put("type", a.type().elleName());
        if (a.alias() != null) o.put("alias", a.alias().mtcName());
        if (a.level() != null) o.put("level", a.level().cliName()); else o.put("level", LevelResult.OWN);
        o.put("explanation", Explainer.sentence(a));
        if (a.key() != null) {
            if (a.keyNames().containsKey(a.key())) o.put("key", jsonKey(a.keyName(a.key()))); else o.put("key", a.key());
        }
        if (a.op() != null) o.set("op", op(a.op(), a.keyNames()));
        ArrayNode txns = o.putArray("txns");
        for (Txn t : a.txns()) txns.add(txn(t, a.keyNames()));
        steps(o.putArray("steps"), a.steps(), a.keyNames());
        if (!a.premises().isEmpty()) {
            ArrayNode ps = o.putArray("premises");
            for (Premise p : a.premises()) {
                ObjectNode po = ps.addObject();
                po.put("claim", p.claim());
                steps(po.putArray("steps"), p.steps(), a.keyNames());
            }
        }
        if (a.argument() != null) o.set("argument", argument(a.argument()));
        if (!a.commitLog().isEmpty()) {
            ArrayNode log = o.putArray("commit_log");
            for (Txn t : a.txns()) {
                List<isostress.checker.model.WitnessTxn> l = a.commitLog().get(t.id());
                if (l == null) continue;
                for (isostress.checker.model.WitnessTxn w : l) {
                    ObjectNode e = log.addObject();
                    e.put("txn", t.id());
                    e.put("node", w.node());
                    if (w.timeline() >= 0) e.put("timeline", w.timeline());
                    e.put("pos", w.pos());
                    e.put("txid", w.txid());
                    e.put("line", w.line());
                }
            }
        }
        return o;
    }

    /**
     * An SQL counterexample: the rows and predicate it is about, its commit-order edges (each with the reason it is
     * forced, as a sentence and as data), and the argument in sentences for readers of results.json and the report.
     */
    private static ObjectNode argument(Argument g) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("kind", ArgumentText.kind(g.finding()));
        o.put("message", ArgumentText.message(g));
        g.txnIds().forEach(o.putArray("txns")::add);
        if (g.predicate() != null) o.put("predicate", g.predicate());
        if (g.row() != null) o.put("row", g.row());
        if (g.writer() != null) o.put("writer", g.writer());
        ArgumentText.let(g).forEach(o.putArray("let")::add);
        ArgumentText.however(g).forEach(o.putArray("however")::add);
        if (!g.cycle().isEmpty()) g.cycle().forEach(o.putArray("cycle")::add);
        if (!g.edges().isEmpty()) {
            ArrayNode edges = o.putArray("edges");
            for (Argument.Edge e : g.edges()) {
                ObjectNode eo = edges.addObject();
                eo.put("from", ArgumentText.label(e.from()));
                eo.put("to", ArgumentText.label(e.to()));
                eo.put("kind", reasonKind(e.reason()));
                eo.put("reason", ArgumentText.edge(e));
            }
        }
        return o;
    }

    /** so, wr or co: the dependency an SQL commit-order edge stands for. */
    private static String reasonKind(Argument.Reason r) {
        if (r instanceof Argument.ReadFrom) return "wr";
        if (r instanceof Argument.Visible) return "co";
        return "so";
    }

    private static void steps(ArrayNode steps, List<Step> list, java.util.Map<Long, String> keyNames) {
        for (Step s : list) {
            ObjectNode so = steps.addObject();
            so.put("from", s.from());
            so.put("to", s.to());
            so.put("kind", s.kind().shortName());
            if (s.key() != null) {
                if (keyNames.containsKey(s.key())) so.put("key", jsonKey(keyNames.get(s.key()))); else so.put("key", s.key());
                if (s.value() == null) so.putNull("value"); else so.put("value", s.value());
                if (s.nextValue() != null) so.put("next_value", s.nextValue());
                if (s.initialValue()) so.put("initial", true);
            }
            if (s.witness() >= 0) so.put("witness", s.witness());
            if (s.order() != null) so.put("commit_order", s.order());
        }
    }

    public static ObjectNode txn(Txn t) {
        return txn(t, java.util.Map.of());
    }

    /** @param keyNames the history's non-integer keys by id ({@link Anomaly#keyNames}), written in their place */
    public static ObjectNode txn(Txn t, java.util.Map<Long, String> keyNames) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("id", t.id());
        o.put("process", t.process());
        o.put("outcome", t.outcome().jepsenName());
        o.put("invoke_index", t.invokeIndex());
        if (!t.pending()) o.put("complete_index", t.completeIndex());
        if (t.line() > 0) o.put("line", t.line());
        if (t.node() != null) o.put("node", t.node());
        ArrayNode ops = o.putArray("ops");
        for (MicroOp m : t.ops()) ops.add(op(m, keyNames));
        return o;
    }

    /** A non-integer key as a JSON string: {@code :x} stays {@code ":x"}, a string key {@code "x"} becomes "x". */
    private static String jsonKey(String spelling) {
        return spelling.length() >= 2 && spelling.startsWith("\"") && spelling.endsWith("\"")
                ? spelling.substring(1, spelling.length() - 1) : spelling;
    }

    private static ArrayNode op(MicroOp m, java.util.Map<Long, String> keyNames) {
        ArrayNode a = MAPPER.createArrayNode();
        a.add(m.function());
        if (keyNames.containsKey(m.key())) a.add(jsonKey(keyNames.get(m.key()))); else a.add(m.key());
        if (m instanceof MicroOp.Read) {
            Long v = ((MicroOp.Read) m).value();
            if (v == null) a.addNull(); else a.add(v);
        } else if (m instanceof MicroOp.Write) {
            a.add(((MicroOp.Write) m).value());
        } else if (m instanceof MicroOp.Append) {
            a.add(((MicroOp.Append) m).value());
        } else if (m instanceof MicroOp.ListRead) {
            List<Long> vs = ((MicroOp.ListRead) m).values();
            if (vs == null) a.addNull(); else vs.forEach(a.addArray()::add);
        } else if (m instanceof MicroOp.Delete) {
            return a; // ["delete", key]: the row is gone, no value
        } else {
            MicroOp.Cas c = (MicroOp.Cas) m;
            ArrayNode ev = a.addArray();
            if (c.expected() == null) ev.addNull(); else ev.add(c.expected());
            ev.add(c.newValue());
        }
        return a;
    }
}
