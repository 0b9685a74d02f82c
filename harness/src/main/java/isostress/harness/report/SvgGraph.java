package isostress.harness.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static isostress.harness.report.Html.esc;
import static isostress.harness.report.Html.f;

/**
 * A counterexample's transactions and dependency edges as inline SVG, drawn from the structured anomaly in
 * results.json ({@code txns} and {@code steps}) rather than the DOT files, so no Graphviz is needed to see it.
 * A cycle has few transactions, so they sit on a circle (the order of {@code txns}, first at the top or left) and
 * each edge is a curve bent to its left: the two directions between the same pair never overlap. Edges are coloured
 * by kind like the DOT files (ww blue, wr green, rw red, so grey, rt purple, co orange) and labelled with the kind
 * and the key and value that justify them.
 */
final class SvgGraph {
    private static final int CHAR_W = 7, LINE_H = 15, PAD = 8, MAX_OPS = 8, MAX_CHARS = 44;
    private static final Map<String, String> COLORS = Map.of("ww", "#1f77b4", "wr", "#2ca02c", "rw", "#d62728",
            "so", "#7f7f7f", "rt", "#9467bd", "co", "#ff7f0e");

    private record Box(long id, List<String> lines, double w, double h, double[] c) {
    }

    private SvgGraph() {
    }

    static String render(JsonNode anomaly) {
        Map<Long, Box> boxes = new LinkedHashMap<>();
        for (JsonNode t : anomaly.path("txns")) {
            List<String> lines = new ArrayList<>();
            lines.add("T" + t.path("id").asLong() + " (p" + t.path("process").asText() + ", " + t.path("outcome").asText() + ")");
            int n = 0;
            for (JsonNode op : t.path("ops")) {
                if (n++ == MAX_OPS) {
                    lines.add("… " + (t.path("ops").size() - MAX_OPS) + " more");
                    break;
                }
                lines.add(cut(opText(op)));
            }
            boxes.put(t.path("id").asLong(), box(t.path("id").asLong(), lines));
        }
        for (JsonNode s : anomaly.path("steps")) {
            for (String end : new String[] {"from", "to"}) {
                long id = s.path(end).asLong();
                if (s.has(end) && !boxes.containsKey(id)) boxes.put(id, box(id, List.of("T" + id)));
            }
        }
        if (boxes.isEmpty()) return "";
        List<Box> list = new ArrayList<>(boxes.values());
        double maxW = 0, maxH = 0;
        for (Box b : list) {
            maxW = Math.max(maxW, b.w);
            maxH = Math.max(maxH, b.h);
        }
        int n = list.size();
        // An ellipse rather than a circle: boxes are wider than tall, so neighbours need more room across than down.
        double sin = Math.sin(Math.PI / n);
        double rx = n == 1 ? 0 : (maxW + (n == 2 ? 190 : 130)) / (2 * sin);
        double ry = n <= 2 ? 0 : Math.max((maxH + 150) / (2 * sin), 0.6 * rx);
        for (int i = 0; i < n; i++) {
            double angle = n == 2 ? Math.PI * (1 - i) : -Math.PI / 2 + 2 * Math.PI * i / n;
            list.get(i).c[0] = rx * Math.cos(angle);
            list.get(i).c[1] = ry * Math.sin(angle);
        }
        // A tight frame around the boxes, with room for the curves that bulge outwards and their labels.
        double minX = Double.MAX_VALUE, minY = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
        for (Box x : list) {
            minX = Math.min(minX, x.c[0] - x.w / 2);
            maxX = Math.max(maxX, x.c[0] + x.w / 2);
            minY = Math.min(minY, x.c[1] - x.h / 2);
            maxY = Math.max(maxY, x.c[1] + x.h / 2);
        }
        double margin = 45, dx0 = margin - minX, dy0 = margin - minY;
        for (Box x : list) {
            x.c[0] += dx0;
            x.c[1] += dy0;
        }
        double width = maxX - minX + 2 * margin, height = maxY - minY + 2 * margin;
        StringBuilder b = new StringBuilder();
        b.append("<svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(f(width)).append(' ')
                .append(f(height)).append("\" width=\"").append(f(width)).append("\" role=\"img\" aria-label=\"")
                .append(esc(anomaly.path("name").asText())).append(" dependency graph\">\n<defs>");
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(COLORS).entrySet()) marker(b, e.getKey(), e.getValue());
        marker(b, "other", "#333333");
        b.append("</defs>\n");
        Map<String, Integer> parallel = new HashMap<>();
        StringBuilder labels = new StringBuilder();
        for (JsonNode s : anomaly.path("steps")) {
            Box from = boxes.get(s.path("from").asLong()), to = boxes.get(s.path("to").asLong());
            String kind = s.path("kind").asText("?");
            String color = COLORS.getOrDefault(kind, "#333333"), marker = COLORS.containsKey(kind) ? kind : "other";
            int k = parallel.merge(from.id + ">" + to.id, 1, Integer::sum);
            edge(b, labels, from, to, k, color, marker, label(s));
        }
        for (Box x : list) {
            double x0 = x.c[0] - x.w / 2, y0 = x.c[1] - x.h / 2;
            b.append("<g class=\"txn\"><rect x=\"").append(f(x0)).append("\" y=\"").append(f(y0)).append("\" width=\"")
                    .append(f(x.w)).append("\" height=\"").append(f(x.h)).append("\" rx=\"5\"/>");
            for (int i = 0; i < x.lines.size(); i++) {
                b.append("<text x=\"").append(f(x0 + PAD)).append("\" y=\"").append(f(y0 + PAD + 11 + i * LINE_H))
                        .append(i == 0 ? "\" class=\"thead\">" : "\">").append(esc(x.lines.get(i))).append("</text>");
            }
            b.append("</g>\n");
        }
        return b.append(labels).append("</svg>\n").toString();
    }

    static String opText(JsonNode op) {
        StringBuilder s = new StringBuilder();
        for (JsonNode part : op) {
            if (s.length() > 0) s.append(' ');
            s.append(part.isTextual() ? part.asText() : part.toString());
        }
        return s.toString();
    }

    private static String cut(String s) {
        return s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS - 1) + "…";
    }

    private static Box box(long id, List<String> lines) {
        int chars = 0;
        for (String l : lines) chars = Math.max(chars, l.length());
        return new Box(id, lines, chars * CHAR_W + 2 * PAD, lines.size() * LINE_H + 2 * PAD - 2, new double[2]);
    }

    /** The edge's kind, then the key and value read or written that put it there. */
    static String label(JsonNode s) {
        StringBuilder l = new StringBuilder(s.path("kind").asText("?"));
        if (s.has("key")) {
            l.append(' ').append(s.path("key").asText());
            if (s.has("value")) l.append('=').append(text(s.get("value")));
            if (s.has("next_value")) l.append('→').append(text(s.get("next_value")));
        }
        if (s.has("witness")) l.append(" (via T").append(s.path("witness").asText()).append(')');
        return l.toString();
    }

    private static String text(JsonNode v) {
        return v.isTextual() ? v.asText() : v.toString();
    }

    private static void marker(StringBuilder b, String id, String color) {
        b.append("<marker id=\"arrow-").append(id).append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"11\" "
                + "markerHeight=\"11\" markerUnits=\"userSpaceOnUse\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"").append(color)
                .append("\"/></marker>");
    }

    private static void edge(StringBuilder b, StringBuilder labels, Box from, Box to, int k, String color,
                             String marker, String label) {
        double lx, ly;
        if (from == to) { // a loop over the top of the box
            double x = from.c[0], y = from.c[1] - from.h / 2;
            b.append("<path d=\"M").append(f(x - 20)).append(',').append(f(y)).append(" C").append(f(x - 30)).append(',')
                    .append(f(y - 50 * k)).append(' ').append(f(x + 30)).append(',').append(f(y - 50 * k)).append(' ')
                    .append(f(x + 20)).append(',').append(f(y)).append("\"");
            lx = x;
            ly = y - 38 * k;
        } else {
            double dx = to.c[0] - from.c[0], dy = to.c[1] - from.c[1], len = Math.hypot(dx, dy);
            double bend = 30 + 28 * (k - 1); // to the left of the direction of travel
            double mx = (from.c[0] + to.c[0]) / 2 + bend * dy / len, my = (from.c[1] + to.c[1]) / 2 - bend * dx / len;
            double[] p0 = exit(from, mx, my, 2), p2 = exit(to, mx, my, 4);
            double qx = 2 * mx - (p0[0] + p2[0]) / 2, qy = 2 * my - (p0[1] + p2[1]) / 2; // control point: curve passes (mx,my)
            b.append("<path d=\"M").append(f(p0[0])).append(',').append(f(p0[1])).append(" Q").append(f(qx)).append(',')
                    .append(f(qy)).append(' ').append(f(p2[0])).append(',').append(f(p2[1])).append("\"");
            lx = mx + 9 * dy / len; // the label just outside the curve, not on it
            ly = my - 9 * dx / len + (dx < 0 ? 6 : 0);
        }
        b.append(" fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\" marker-end=\"url(#arrow-")
                .append(marker).append(")\"/>\n");
        labels.append("<text x=\"").append(f(lx)).append("\" y=\"").append(f(ly + 4)).append("\" class=\"elabel\" fill=\"")
                .append(color).append("\">").append(esc(label)).append("</text>\n");
    }

    /** Where the line from the box's centre towards (x, y) leaves the box, {@code gap} pixels out. */
    private static double[] exit(Box box, double x, double y, double gap) {
        double dx = x - box.c[0], dy = y - box.c[1];
        double t = Math.min(dx == 0 ? Double.MAX_VALUE : (box.w / 2 + gap) / Math.abs(dx),
                dy == 0 ? Double.MAX_VALUE : (box.h / 2 + gap) / Math.abs(dy));
        t = Math.min(t, 1);
        return new double[] {box.c[0] + dx * t, box.c[1] + dy * t};
    }
}
