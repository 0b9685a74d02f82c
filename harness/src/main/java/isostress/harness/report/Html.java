package isostress.harness.report;

import java.util.Locale;

/**
 * Escaping and number formatting for the report. Everything that reaches the page (campaign names, database
 * errors, op values, explanations) comes from outside, so every piece of text goes through {@link #esc} on its way
 * into HTML or SVG: a value such as {@code </svg><script>} must show as text, not become markup.
 */
final class Html {
    private Html() {
    }

    /** Text or attribute content: the five characters that can end an element or an attribute. */
    static String esc(Object o) {
        String s = String.valueOf(o);
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A coordinate for SVG: one decimal, always a dot (the default locale may use a comma). */
    static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A number for people: integers without decimals, others with up to {@code digits} significant ones. */
    static String num(double v) {
        if (Double.isNaN(v)) return "–";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.format(Locale.ROOT, "%,d", (long) v);
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
    }
}
