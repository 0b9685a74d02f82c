package isostress.checker.explain;

import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.Step;

import java.util.List;

/**
 * Renders an anomaly as a Graphviz digraph: one node per transaction (its ops in the label), one edge per step,
 * labelled with its kind and the key and values that justify it, coloured by kind as in Elle's plots.
 */
public final class DotRenderer {
    private DotRenderer() {
    }

    public static String render(Anomaly a) {
        StringBuilder sb = new StringBuilder();
        sb.append("digraph \"").append(esc(a.displayName())).append("\" {\n");
        sb.append("  label=\"").append(esc(a.displayName() + " — violates " + a.violates())).append("\";\n");
        sb.append("  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n  edge [fontname=\"monospace\"];\n");
        if (a.argument() != null) return argument(sb, a.argument());
        for (Txn t : a.txns()) {
            sb.append("  T").append(t.id()).append(" [label=\"").append(t.label()).append(" (p")
              .append(t.process()).append(", ").append(t.outcome().jepsenName()).append(")\\n")
              .append(esc(TextRenderer.ops(t.ops(), a::keyName))).append("\"];\n");
        }
        for (Step s : a.steps()) {
            sb.append("  T").append(s.from()).append(" -> T").append(s.to()).append(" [label=\"")
              .append(esc(label(s, a))).append("\", color=").append(color(s.kind()))
              .append(", fontcolor=").append(color(s.kind()));
            if (s.kind() == EdgeKind.CO || s.kind() == EdgeKind.RT) sb.append(", style=dashed");
            sb.append("];\n");
        }
        // Premises: the paths and cycles behind derived orders, dotted, so the main cycle stays readable.
        java.util.Set<String> drawn = new java.util.HashSet<>();
        for (Step s : a.steps()) drawn.add(s.from() + ">" + s.to() + s.kind());
        for (isostress.checker.model.Premise p : a.premises()) {
            for (Step s : p.steps()) {
                if (!drawn.add(s.from() + ">" + s.to() + s.kind())) continue;
                sb.append("  T").append(s.from()).append(" -> T").append(s.to()).append(" [label=\"")
                  .append(esc(label(s, a))).append("\", color=").append(color(s.kind())).append(", fontcolor=")
                  .append(color(s.kind())).append(", style=dotted];\n");
            }
        }
        return sb.append("}\n").toString();
    }

    /**
     * An SQL commit-order cycle: one node per transaction (its "Let" line), one edge per cycle step labelled with the
     * sentence that forces it; the readers whose axioms forced an edge are drawn too, unconnected, as evidence.
     */
    private static String argument(StringBuilder sb, isostress.checker.model.Argument g) {
        List<String> let = ArgumentText.let(g);
        for (int i = 0; i < let.size(); i++) {
            sb.append("  ").append(node(g.let().get(i).id())).append(" [label=\"").append(esc(wrap(let.get(i))))
              .append("\"];\n");
        }
        for (isostress.checker.model.Argument.Edge e : g.edges()) {
            if (e.from() == isostress.checker.model.Argument.INIT || e.to() == isostress.checker.model.Argument.INIT) {
                sb.append("  init [label=\"init\"];\n");
                break;
            }
        }
        for (isostress.checker.model.Argument.Edge e : g.edges()) {
            EdgeKind k = kind(e.reason());
            sb.append("  ").append(node(e.from())).append(" -> ").append(node(e.to())).append(" [label=\"")
              .append(esc(wrap(ArgumentText.edge(e)))).append("\", color=").append(color(k)).append(", fontcolor=")
              .append(color(k));
            if (k == EdgeKind.CO) sb.append(", style=dashed");
            sb.append("];\n");
        }
        return sb.append("}\n").toString();
    }

    /** The DOT node of a transaction of an SQL argument, or of the initial state. */
    private static String node(long txn) {
        return txn == isostress.checker.model.Argument.INIT ? "init" : "T" + txn;
    }

    /** The dependency an SQL commit-order edge stands for, for its colour. */
    private static EdgeKind kind(isostress.checker.model.Argument.Reason r) {
        if (r instanceof isostress.checker.model.Argument.ReadFrom) return EdgeKind.WR;
        if (r instanceof isostress.checker.model.Argument.Visible) return EdgeKind.CO;
        return EdgeKind.SO;
    }

    /** Breaks long SQL lines every ~60 characters at a space, so the graph stays legible. */
    private static String wrap(String s) {
        StringBuilder out = new StringBuilder();
        int col = 0;
        for (String w : s.split(" ")) {
            if (col > 0 && col + w.length() > 60) {
                out.append("\n");
                col = 0;
            } else if (col > 0) {
                out.append(' ');
                col++;
            }
            out.append(w);
            col += w.length();
        }
        return out.toString();
    }

    private static String label(Step s, Anomaly a) {
        String k = s.kind().shortName();
        if (s.key() == null) return k;
        String v = s.value() == null ? "nil" : s.value().toString();
        if (s.nextValue() != null) return k + " " + a.keyName(s.key()) + ": " + v + "→" + s.nextValue();
        return k + " " + a.keyName(s.key()) + ": " + v;
    }

    private static String color(EdgeKind k) {
        switch (k) {
            case WW: return "\"#1f77b4\"";
            case WR: return "\"#2ca02c\"";
            case RW: return "\"#d62728\"";
            case SO: return "\"#7f7f7f\"";
            case RT: return "\"#9467bd\"";
            default: return "\"#ff7f0e\"";
        }
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
