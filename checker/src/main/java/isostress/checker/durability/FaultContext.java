package isostress.checker.durability;

import isostress.checker.history.History;
import isostress.checker.history.SideEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The faults of a history as its nemesis events tell them ({@code start-<fault>} / {@code stop-<fault>}, value
 * {@code {"node": .., "leader-before": .., "leader-after": ..}}), to say what was going on when a write was
 * acknowledged. Read from the events' text only: the checker knows no database, and the leader fields are there only
 * when the harness ran a cluster with a failover manager.
 */
final class FaultContext {
    private static final Pattern FIELD = Pattern.compile("\"([a-z-]+)\"\\s*:\\s*\"([^\"]*)\"");

    /** One fault: its name, node, when it began and ended (event indices, times), the leaders named. */
    private record Span(String fault, String node, long startIndex, long startTime, long endIndex, long endTime,
                        String leaderBefore, String leaderAfter) {
    }

    private final List<Span> spans = new ArrayList<>();

    FaultContext(History h) {
        List<SideEvent> open = new ArrayList<>();
        for (SideEvent e : h.sideEvents()) {
            if (!"nemesis".equals(e.process()) || e.f() == null) continue;
            if (e.f().startsWith("start-")) {
                open.add(e);
            } else if (e.f().startsWith("stop-")) {
                String fault = e.f().substring("stop-".length());
                String node = field(e, "node");
                for (int i = open.size() - 1; i >= 0; i--) {
                    SideEvent s = open.get(i);
                    boolean same = s.f().equals("start-" + fault)
                            && String.valueOf(node).equals(String.valueOf(field(s, "node")));
                    if (!same) continue;
                    open.remove(i);
                    spans.add(new Span(fault, node, s.index(), s.time(), e.index(), e.time(),
                            leader(s, "leader-before"), leader(e, "leader-after")));
                    break;
                }
            }
        }
        for (SideEvent s : open) {
            String fault = s.f().substring("start-".length());
            spans.add(new Span(fault, field(s, "node"), s.index(), s.time(), Long.MAX_VALUE, -1,
                    leader(s, "leader-before"), null));
        }
        spans.sort((a, b) -> Long.compare(a.startIndex(), b.startIndex()));
    }

    /** The leader the fault events last named before event {@code index}, or null. */
    String leaderBefore(long index) {
        String out = null;
        long at = -1;
        for (Span s : spans) {
            if (s.startIndex() < index && s.leaderBefore() != null && s.startIndex() > at) {
                out = s.leaderBefore();
                at = s.startIndex();
            }
            if (s.endIndex() < index && s.leaderAfter() != null && s.endIndex() > at) {
                out = s.leaderAfter();
                at = s.endIndex();
            }
        }
        return out;
    }

    /**
     * What was going on at event {@code index}, as a sentence ending in a full stop, or null when no fault came
     * before it: "It was acknowledged during kill-primary-patroni on n1 (from 5.102 s; leader n1 before it, n2
     * after)." or "... 0.250 s after crash-primary on n2 ended (...)."
     */
    String describe(long index, long time) {
        Span last = null;
        for (Span s : spans) if (s.startIndex() < index) last = s;
        if (last == null) return null;
        StringBuilder sb = new StringBuilder("It was acknowledged ");
        if (last.endIndex() > index) {
            sb.append("during ").append(last.fault()).append(on(last)).append(" (from ")
              .append(seconds(last.startTime())).append(leaders(last)).append(").");
        } else {
            if (time >= 0 && last.endTime() >= 0) {
                sb.append(seconds(time - last.endTime())).append(" after ");
            } else {
                sb.append("after ");
            }
            sb.append(last.fault()).append(on(last)).append(" ended (it began at ").append(seconds(last.startTime()))
              .append(leaders(last)).append(").");
        }
        return sb.toString();
    }

    private static String on(Span s) {
        return s.node() == null ? "" : " on " + s.node();
    }

    private static String leaders(Span s) {
        if (s.leaderBefore() == null && s.leaderAfter() == null) return "";
        return "; leader " + (s.leaderBefore() == null ? "?" : s.leaderBefore()) + " before it, "
                + (s.leaderAfter() == null ? "?" : s.leaderAfter()) + " after";
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    private static String leader(SideEvent e, String key) {
        String v = field(e, key);
        return v == null || v.equals("none") ? null : v;
    }

    private static String field(SideEvent e, String key) {
        if (e.valueJson() == null) return null;
        Matcher m = FIELD.matcher(e.valueJson());
        while (m.find()) if (m.group(1).equals(key)) return m.group(2);
        return null;
    }
}
