package isostress.harness.db.postgresql.patroni;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Patroni's own settings as a campaign gives them ({@code database.patroni}): the keys of its dynamic configuration
 * (Patroni 3.0's {@code bootstrap.dcs}: failure detection, synchronous replication, failover limits), checked here so
 * that a misspelt key or a word where a number belongs is a sentence of the loader rather than a member that will not
 * start. PostgreSQL's parameters are {@code database.settings}, as for every other provision.
 *
 * <p>Defaults differ from Patroni's (ttl 30, loop_wait 10, retry_timeout 10) for failure detection only: ttl 10,
 * loop_wait 2 and retry_timeout 5 elect a leader in about 4 s on one machine, where a run lasts a minute, and notice a
 * lost primary within ttl.
 */
public final class PatroniSettings {
    /** Whole numbers: seconds, bytes or a count. */
    private static final List<String> INTEGERS = List.of("ttl", "loop_wait", "retry_timeout",
            "maximum_lag_on_failover", "maximum_lag_on_syncnode", "max_timelines_history", "primary_start_timeout",
            "primary_stop_timeout", "synchronous_node_count");
    private static final List<String> BOOLEANS = List.of("synchronous_mode", "synchronous_mode_strict",
            "check_timeline", "failsafe_mode");
    /** What isostress puts into every cluster's bootstrap configuration unless the campaign says otherwise. */
    static final Map<String, String> DEFAULTS = Map.of("ttl", "10", "loop_wait", "2", "retry_timeout", "5");
    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,12}");

    private PatroniSettings() {
    }

    /** Why {@code key: value} is not one of Patroni's dynamic settings as isostress passes them on, or null. */
    public static String problem(String key, String value) {
        if (INTEGERS.contains(key)) {
            if (!INTEGER.matcher(value).matches()) return "must be a whole number, was '" + value + "'";
            long v = Long.parseLong(value);
            if (v < 0 && !key.equals("maximum_lag_on_syncnode")) return "must not be negative, was " + v;
            if ((key.equals("ttl") || key.equals("loop_wait") || key.equals("retry_timeout")) && v < 1) {
                return "must be at least 1 (seconds), was " + v;
            }
            return null;
        }
        if (BOOLEANS.contains(key)) {
            return value.equals("true") || value.equals("false") ? null : "must be true or false, was '" + value + "'";
        }
        if (key.startsWith("master_")) {
            return "is Patroni's old name: write " + key.replace("master_", "primary_");
        }
        if (key.equals("postgresql") || key.equals("parameters")) {
            return "PostgreSQL's parameters go in database.settings";
        }
        return "is not one of Patroni's dynamic settings isostress passes on ("
                + String.join(", ", INTEGERS) + ", " + String.join(", ", BOOLEANS) + ")";
    }

    /** The dynamic settings of a cluster: isostress's defaults under the campaign's. */
    static Map<String, String> effective(Map<String, String> campaign) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : List.of("ttl", "loop_wait", "retry_timeout")) out.put(k, DEFAULTS.get(k));
        out.putAll(campaign);
        return out;
    }
}
