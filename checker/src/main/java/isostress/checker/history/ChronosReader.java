package isostress.checker.history;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.exc.InputCoercionException;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the histories of Chronos and Aion (TimeKiller, ICDE 2025): one JSON array of committed transactions,
 * <pre>
 *   [{"sid":1,"tid":7,"sts":{"p":1691420095436341,"l":61},"cts":{"p":1691420095659914,"l":18},
 *     "ops":[{"t":"w","k":7,"v":2},{"t":"r","k":8,"v":3}]}, ...]
 * </pre>
 * as TimeKiller's own readers take them. {@code sid} (an integer or a string) is the session: a process here, with
 * its number when every {@code sid} is an integer, else numbered in order of first appearance; a session's
 * transactions are in file order. {@code tid} is only an identifier and is not kept. {@code sts} and {@code cts} are
 * the database's start (snapshot) and commit timestamps, hybrid logical clocks whose {@code p} (a number or a numeric
 * string) and {@code l} (0 when missing) must be integers, with {@code sts <= cts}; they are checked and dropped.
 * They are not the clients' real time (TimeKiller takes {@code cts} for real time only in its online mode, with
 * {@code --use_cts_as_rtts}), so the history has no real-time order, and the black-box checks here do not use them.
 * Every transaction is committed: the format has no aborted ones.
 *
 * <p>Two data models, told by the ops: key-value ({@code t} {@code w}/{@code write} or {@code r}/{@code read}, an
 * integer {@code v}; a read's {@code v} may be {@code null} or missing) and list ({@code t} {@code a}/{@code append}
 * with an integer {@code v}, or a read whose {@code v} is a list, {@code null}, missing or {@code []} meaning the
 * empty list). A history mixing the two is refused. TimeKiller's {@code --initial_value} is the value of every key
 * before any write, null by default: here a key-value history starts at 0 when no write writes 0 and no read reads
 * null (TimeKiller's examples read 0 as the initial value, and so need {@code --initial_value 0}), else absent.
 *
 * <p>Parsed with Jackson's token stream into primitive columns, so a million transactions take a few seconds.
 */
final class ChronosReader implements HistoryReader {
    private static final byte READ = 0, READ_NULL = 1, READ_LIST = 2, WRITE = 3, APPEND = 4;

    @Override
    public History read(InputStream in, String source) throws IOException {
        // StrictUtf8Stream: UTF-8 only; Jackson would guess UTF-16 or UTF-32 from NUL bytes and fail without a line.
        try (JsonParser p = JsonlReader.FACTORY.createParser(new StrictUtf8Stream(in, source))) {
            try {
                return new Parse(p, source).run();
            } catch (InputCoercionException e) {
                throw new InputException(source, line(e, p), "integer out of range: " + e.getOriginalMessage());
            } catch (JsonProcessingException e) {
                throw new InputException(source, line(e, p), "malformed JSON: " + e.getOriginalMessage());
            }
        }
    }

    /** The line of a Jackson error: where it says, else (a nesting limit, say) where the parser stands. */
    private static int line(JsonProcessingException e, JsonParser p) {
        int line = e.getLocation() != null ? e.getLocation().getLineNr() : p.currentLocation().getLineNr();
        return Math.max(1, line);
    }

    /** One pass over the array, into columns; then the history. */
    private static final class Parse {
        private final JsonParser p;
        private final String source;
        // per transaction
        private int txns;
        private int[] session = new int[1024], line = new int[1024], opEnd = new int[1024];
        private final Map<String, Integer> sessions = new HashMap<>();
        private String[] sessionNames = new String[64];
        // per op
        private int ops;
        private byte[] kind = new byte[4096];
        private long[] key = new long[4096], value = new long[4096];
        private int[] listLen = new int[4096];
        private long[] pool = new long[4096];
        private int poolSize;
        private boolean writesZero, readsNull, kvOps, listOps;
        private int firstKvLine, firstListLine;

        Parse(JsonParser p, String source) {
            this.p = p;
            this.source = source;
        }

        History run() throws IOException {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw error("a Chronos history is a JSON array of transactions "
                        + "{\"sid\":..,\"tid\":..,\"sts\":{\"p\":..,\"l\":..},\"cts\":{..},\"ops\":[..]}");
            }
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t != JsonToken.START_OBJECT) throw error("expected a transaction object in the array");
                txn();
            }
            if (p.nextToken() != null) throw error("unexpected data after the array of transactions");
            if (txns == 0) throw EventAssembler.noTransactions(source, line(), 0);
            if (kvOps && listOps) {
                throw new InputException(source, Math.max(firstKvLine, firstListLine), "mixes the key-value data "
                        + "model (a read of a single value, line " + firstKvLine + ") with the list one (an append "
                        + "or a read of a list, line " + firstListLine + "); a history uses one of them");
            }
            return build();
        }

        private void txn() throws IOException {
            int txnLine = line();
            String sid = null;
            long[] sts = null, cts = null;
            boolean hasOps = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                switch (f) {
                    case "sid" -> {
                        if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_STRING) {
                            throw error("\"sid\" must be an integer or a string");
                        }
                        sid = p.getText();
                    }
                    case "sts" -> sts = timestamp("sts");
                    case "cts" -> cts = timestamp("cts");
                    case "ops" -> {
                        if (v != JsonToken.START_ARRAY) throw error("\"ops\" must be an array of operations");
                        hasOps = true;
                        while (p.nextToken() != JsonToken.END_ARRAY) op();
                    }
                    default -> p.skipChildren(); // "tid" and anything else: not kept
                }
            }
            String missing = sid == null ? "sid" : sts == null ? "sts" : cts == null ? "cts" : !hasOps ? "ops" : null;
            if (missing != null) {
                throw new InputException(source, txnLine, "the transaction has no \"" + missing + "\" (each has "
                        + "sid, sts, cts and ops)");
            }
            if (sts[0] > cts[0] || (sts[0] == cts[0] && sts[1] > cts[1])) {
                throw new InputException(source, txnLine, "the start timestamp (" + sts[0] + "," + sts[1] + ") is "
                        + "after the commit timestamp (" + cts[0] + "," + cts[1] + ")");
            }
            if (txns == session.length) {
                int n = txns * 2;
                session = Arrays.copyOf(session, n);
                line = Arrays.copyOf(line, n);
                opEnd = Arrays.copyOf(opEnd, n);
            }
            Integer s = sessions.get(sid);
            if (s == null) {
                s = sessions.size();
                sessions.put(sid, s);
                if (s == sessionNames.length) sessionNames = Arrays.copyOf(sessionNames, s * 2);
                sessionNames[s] = sid;
            }
            session[txns] = s;
            line[txns] = txnLine;
            opEnd[txns] = ops;
            txns++;
        }

        /** An HLC {@code {"p":P,"l":L}} as {p, l}. */
        private long[] timestamp(String name) throws IOException {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw error("\"" + name + "\" must be a timestamp {\"p\":physical,\"l\":logical}");
            }
            long[] ts = {0, 0};
            boolean physical = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                if (f.equals("p")) {
                    ts[0] = integer(name + ".p");
                    physical = true;
                } else if (f.equals("l")) {
                    ts[1] = integer(name + ".l");
                } else {
                    p.skipChildren();
                }
            }
            if (!physical) throw error("\"" + name + "\" has no physical part \"p\"");
            return ts;
        }

        /** The current token as an integer: a JSON integer or a string holding one. */
        private long integer(String what) throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.VALUE_NUMBER_INT) return p.getLongValue();
            if (t == JsonToken.VALUE_STRING) {
                String s = p.getText();
                try {
                    return Long.parseLong(s.trim());
                } catch (NumberFormatException e) {
                    throw error("\"" + what + "\" must be an integer, not \"" + s + "\"");
                }
            }
            throw error("\"" + what + "\" must be an integer, not " + describe(t));
        }

        private void op() throws IOException {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw error("expected an operation {\"t\":\"r\"|\"w\"|\"a\",\"k\":key,\"v\":value}");
            }
            int opLine = line();
            String type = null;
            boolean hasKey = false, scalar = false, list = false;
            long k = 0, v = 0;
            int listStart = poolSize;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                switch (f) {
                    case "t" -> {
                        if (t != JsonToken.VALUE_STRING) throw error("\"t\" must be a string: r, w or a");
                        type = p.getText();
                    }
                    case "k" -> {
                        k = integer("k");
                        hasKey = true;
                    }
                    case "v" -> {
                        if (t == JsonToken.START_ARRAY) {
                            list = true;
                            while (p.nextToken() != JsonToken.END_ARRAY) {
                                if (poolSize == pool.length) pool = Arrays.copyOf(pool, poolSize * 2);
                                pool[poolSize++] = integer("v");
                            }
                        } else if (t != JsonToken.VALUE_NULL) {
                            v = integer("v");
                            scalar = true;
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (type == null) throw new InputException(source, opLine, "the operation has no type \"t\"");
            if (!hasKey) throw new InputException(source, opLine, "the operation has no key \"k\"");
            byte kd;
            switch (type.toLowerCase(Locale.ROOT)) {
                case "r", "read" -> kd = list ? READ_LIST : scalar ? READ : READ_NULL;
                case "w", "write" -> kd = WRITE;
                case "a", "append" -> kd = APPEND;
                default -> throw new InputException(source, opLine, "unknown operation type \"" + type + "\" (r, w, "
                        + "read, write for key-value histories; a, append, r, read for list ones)");
            }
            if ((kd == WRITE || kd == APPEND) && !scalar) {
                throw new InputException(source, opLine, "a " + type + " needs an integer value \"v\""
                        + (list ? ", not a list" : ""));
            }
            if (kd == READ || kd == WRITE) {
                if (!kvOps) firstKvLine = opLine;
                kvOps = true;
            } else if (kd == READ_LIST || kd == APPEND) {
                if (!listOps) firstListLine = opLine;
                listOps = true;
            }
            if (kd == WRITE && v == 0) writesZero = true;
            if (kd == READ_NULL) readsNull = true;
            if (ops == kind.length) {
                int n = ops * 2;
                kind = Arrays.copyOf(kind, n);
                key = Arrays.copyOf(key, n);
                value = Arrays.copyOf(value, n);
                listLen = Arrays.copyOf(listLen, n);
            }
            kind[ops] = kd;
            key[ops] = k;
            value[ops] = kd == READ_LIST ? listStart : v;
            listLen[ops] = poolSize - listStart;
            ops++;
        }

        private History build() {
            boolean numbered = true;
            long[] process = new long[sessions.size()];
            for (int s = 0; s < process.length && numbered; s++) {
                try {
                    process[s] = Long.parseLong(sessionNames[s]);
                } catch (NumberFormatException e) {
                    numbered = false;
                }
            }
            if (!numbered) for (int s = 0; s < process.length; s++) process[s] = s;
            InitialState initial = !listOps && !writesZero && !readsNull ? InitialState.allKeys(0L)
                    : InitialState.ABSENT;
            History.Builder b = History.builder().source(source).realTime(false).initial(initial)
                    .ensureCapacity(txns, ops);
            int op = 0;
            for (int t = 0; t < txns; t++) {
                b.beginTxn(process[session[t]], Outcome.OK, 2L * t, 2L * t + 1, -1, -1, line[t]);
                for (; op < opEnd[t]; op++) {
                    switch (kind[op]) {
                        case READ -> b.read(key[op], value[op]);
                        case READ_NULL -> {
                            if (listOps) b.listRead(key[op], pool, 0, 0); else b.readNull(key[op]);
                        }
                        case READ_LIST -> b.listRead(key[op], pool, (int) value[op], listLen[op]);
                        case WRITE -> b.write(key[op], value[op]);
                        default -> b.append(key[op], value[op]);
                    }
                }
                b.endTxn();
            }
            return b.build();
        }

        /** The current token's line; Jackson's own parsers give it without allocating a location per op. */
        private int line() {
            return p instanceof ParserBase b ? b.getTokenLineNr() : p.currentTokenLocation().getLineNr();
        }

        private InputException error(String what) {
            return new InputException(source, line(), what);
        }

        private static String describe(JsonToken t) {
            return switch (t) {
                case START_OBJECT -> "an object";
                case START_ARRAY -> "a list";
                case VALUE_NULL -> "null";
                case VALUE_TRUE, VALUE_FALSE -> "a boolean";
                case VALUE_NUMBER_FLOAT -> "a fraction";
                default -> "\"" + t + "\"";
            };
        }
    }
}
