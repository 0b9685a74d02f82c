package isostress.harness.report;

import java.util.ArrayList;
import java.util.List;

import static isostress.harness.report.Html.esc;
import static isostress.harness.report.Html.f;

/**
 * A line chart over run time as inline SVG, with fault intervals shaded behind the lines and labelled, so a dip in
 * throughput or a latency spike can be read against the fault that caused it. Plain SVG (no script, no library):
 * the report must open in any browser, offline, years later. NaN values (a bucket with nothing to measure) break
 * the line instead of drawing it down to zero.
 */
final class SvgChart {
    private static final int W = 1000, H = 250, LEFT = 64, RIGHT = 16, TOP = 26, BOTTOM = 38;

    private record Series(String name, String color, double[] y) {
    }

    private final String title, yUnit;
    private final double[] x;
    private final double xMax;
    private final List<Series> series = new ArrayList<>();
    private final List<FaultInterval> faults = new ArrayList<>();

    /**
     * @param x    the time of each point, in seconds
     * @param xMax the end of the run, in seconds (the right edge)
     */
    SvgChart(String title, String yUnit, double[] x, double xMax) {
        this.title = title;
        this.yUnit = yUnit;
        this.x = x;
        this.xMax = Math.max(xMax, x.length == 0 ? 1e-3 : x[x.length - 1]);
    }

    SvgChart line(String name, String color, double[] y) {
        series.add(new Series(name, color, y));
        return this;
    }

    SvgChart faults(List<FaultInterval> f) {
        faults.addAll(f);
        return this;
    }

    String render() {
        double yMax = 0;
        for (Series s : series) for (double v : s.y) if (!Double.isNaN(v)) yMax = Math.max(yMax, v);
        double yStep = niceStep(yMax > 0 ? yMax : 1, 5), yTop = Math.ceil((yMax > 0 ? yMax : 1) / yStep) * yStep;
        double xStep = niceStep(xMax, 10);
        double pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(W).append(' ')
                .append(H).append("\" role=\"img\" aria-label=\"").append(esc(title)).append("\">\n");
        b.append("<text x=\"").append(LEFT).append("\" y=\"16\" class=\"ctitle\">").append(esc(title)).append("</text>\n");
        // Fault intervals first, so the lines are drawn over them.
        int row = 0;
        for (FaultInterval fi : faults) {
            double x0 = LEFT + pw * clamp(fi.start() / 1e9 / xMax), x1 = fi.end() < 0 ? LEFT + pw
                    : LEFT + pw * clamp(fi.end() / 1e9 / xMax);
            b.append("<g class=\"fault\"><title>").append(esc(fi.label())).append(": ")
                    .append(seconds(fi.start())).append(" – ")
                    .append(fi.end() < 0 ? "the end" : seconds(fi.end())).append("</title>");
            b.append("<rect x=\"").append(f(x0)).append("\" y=\"").append(TOP).append("\" width=\"")
                    .append(f(Math.max(2, x1 - x0))).append("\" height=\"").append(f(ph))
                    .append("\" fill=\"#f4a3a3\" fill-opacity=\"0.35\"/>");
            b.append("<text x=\"").append(f(x0 + 3)).append("\" y=\"").append(TOP + 12 + 12 * (row++ % 3))
                    .append("\" class=\"flabel\">").append(esc(fi.label())).append("</text></g>\n");
        }
        // Axes and grid.
        for (int i = 0; i * yStep <= yTop + yStep / 2; i++) {
            double v = i * yStep, y = TOP + ph - ph * v / yTop;
            b.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(W - RIGHT).append("\" y1=\"").append(f(y))
                    .append("\" y2=\"").append(f(y)).append("\" class=\"grid\"/>");
            b.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(y + 4)).append("\" class=\"ytick\">")
                    .append(tick(v, yStep)).append("</text>\n");
        }
        for (int i = 0; i * xStep <= xMax + xStep / 1000; i++) {
            double v = i * xStep, xx = LEFT + pw * v / xMax;
            b.append("<line x1=\"").append(f(xx)).append("\" x2=\"").append(f(xx)).append("\" y1=\"").append(TOP + ph)
                    .append("\" y2=\"").append(f(TOP + ph + 4)).append("\" class=\"axis\"/>");
            b.append("<text x=\"").append(f(xx)).append("\" y=\"").append(f(TOP + ph + 16)).append("\" class=\"xtick\">")
                    .append(tick(v, xStep)).append("</text>\n");
        }
        b.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(W - RIGHT).append("\" y1=\"").append(f(TOP + ph))
                .append("\" y2=\"").append(f(TOP + ph)).append("\" class=\"axis\"/>\n");
        b.append("<text x=\"").append(f(LEFT + pw / 2)).append("\" y=\"").append(H - 4)
                .append("\" class=\"xlabel\">seconds since the run started</text>\n");
        b.append("<text x=\"14\" y=\"").append(f(TOP + ph / 2)).append("\" class=\"ylabel\" transform=\"rotate(-90 14 ")
                .append(f(TOP + ph / 2)).append(")\">").append(esc(yUnit)).append("</text>\n");
        // Lines, and a legend at the top right.
        int legend = 0;
        for (Series s : series) {
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < x.length && i < s.y.length; i++) {
                if (Double.isNaN(s.y[i])) {
                    flush(b, pts, s.color);
                    continue;
                }
                pts.append(f(LEFT + pw * clamp(x[i] / xMax))).append(',').append(f(TOP + ph - ph * s.y[i] / yTop)).append(' ');
            }
            flush(b, pts, s.color);
            double lx = W - RIGHT - 150 * (series.size() - legend++);
            b.append("<line x1=\"").append(f(lx)).append("\" x2=\"").append(f(lx + 18)).append("\" y1=\"12\" y2=\"12\" stroke=\"")
                    .append(s.color).append("\" stroke-width=\"3\"/><text x=\"").append(f(lx + 24))
                    .append("\" y=\"16\" class=\"legend\">").append(esc(s.name)).append("</text>\n");
        }
        return b.append("</svg>\n").toString();
    }

    private static void flush(StringBuilder b, StringBuilder pts, String color) {
        if (pts.length() == 0) return;
        String p = pts.toString().trim();
        if (p.indexOf(' ') < 0) { // a single point: a dot, since a one-point polyline is invisible
            String[] xy = p.split(",");
            b.append("<circle cx=\"").append(xy[0]).append("\" cy=\"").append(xy[1]).append("\" r=\"2.5\" fill=\"")
                    .append(color).append("\"/>\n");
        } else {
            b.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\" points=\"")
                    .append(p).append("\"/>\n");
        }
        pts.setLength(0);
    }

    /** A tick label with as many decimals as the step needs (0.1, 0.2, … rather than 0.30000000000000004). */
    static String tick(double v, double step) {
        int decimals = (int) Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
        return String.format(java.util.Locale.ROOT, "%,." + decimals + "f", v);
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }

    /** A step of 1, 2 or 5 × 10^k giving about {@code ticks} ticks up to {@code max}. */
    static double niceStep(double max, int ticks) {
        double raw = max / ticks, mag = Math.pow(10, Math.floor(Math.log10(raw))), n = raw / mag;
        return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
    }
}
