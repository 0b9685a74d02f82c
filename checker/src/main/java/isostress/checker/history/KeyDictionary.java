package isostress.checker.history;

import java.util.HashMap;
import java.util.Map;

/**
 * Gives keys of any scalar type a {@code long} id at read time, and keeps their original spelling for messages and
 * counterexamples (elle-cli's rw-register fixtures use keyword keys, {@code [:w :x 1]}, and JSON
 * ones string keys, {@code ["w","x",1]}).
 *
 * <p>Why not renumber every key densely: integer keys are the common case and appear in every existing output, test
 * and campaign; they keep their own value as id, so nothing about an integer-keyed history changes. Other keys
 * (keywords, strings, booleans, characters, floats, symbols) take ids counted up from {@link Long#MIN_VALUE}. The
 * two ranges meet only if a history also uses integer keys that low; that is refused with a sentence rather than
 * silently merging two keys. A keyword {@code :x} and a string {@code "x"} are different keys, as in Clojure.
 */
final class KeyDictionary {
    private final String source;
    private final Map<Object, Long> ids = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private long next = Long.MIN_VALUE;
    private long lowestInteger = Long.MAX_VALUE;

    KeyDictionary(String source) {
        this.source = source;
    }

    /**
     * The id of a key as parsed from EDN or JSON: integers map to themselves, other scalars to dictionary ids.
     *
     * @throws InputException for nil and collections, which are not keys
     */
    long id(Object key, int line) {
        if (key instanceof Long) return id((long) (Long) key, line);
        if (key == null || key instanceof java.util.Collection || key instanceof Map) {
            throw new InputException(source, line, "a key must be a scalar (integer, keyword, string, boolean, "
                    + "character or float), got " + (key == null ? "nil" : EdnParser.abbreviate(String.valueOf(key))));
        }
        return id(key, spelling(key), line);
    }

    /** How a non-integer key is written in messages: EDN's spelling ({@code :x}, {@code "x"}, {@code \c}). */
    static String spelling(Object key) {
        if (key instanceof String) return "\"" + key + "\"";
        if (key instanceof Character) return "\\" + key;
        return String.valueOf(key);
    }

    /** The id of integer key {@code k}: {@code k} itself. */
    long id(long k, int line) {
        if (k < next) collision(line, k);
        if (k < lowestInteger) lowestInteger = k;
        return k;
    }

    /**
     * The id of a non-integer key.
     *
     * @param key  the key as parsed (its {@code equals} decides identity)
     * @param name its spelling in the input, e.g. {@code :x} or {@code "x"}
     */
    long id(Object key, String name, int line) {
        Long id = ids.get(key);
        if (id != null) return id;
        if (next >= lowestInteger) collision(line, lowestInteger);
        long n = next++;
        ids.put(key, n);
        names.put(n, name);
        return n;
    }

    /**
     * Names key 0 "register": a plain (not jepsen.independent) single-register history has no keys, and its ops are
     * put on key 0; messages then say "register" rather than a key the input never wrote.
     */
    void namePlainRegister() {
        names.put(0L, "register");
    }

    /** How key {@code id} is spelled in the input, for messages. */
    String name(long id) {
        String n = names.get(id);
        return n != null ? n : Long.toString(id);
    }

    /** Spellings of the non-integer keys by id (empty when every key is an integer). */
    Map<Long, String> names() {
        return Map.copyOf(names);
    }

    private void collision(int line, long integerKey) {
        throw new InputException(source, line, "integer key " + integerKey + " and non-integer keys in one history "
                + "are not supported (their ids would collide)");
    }
}
