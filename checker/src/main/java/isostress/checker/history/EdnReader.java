package isostress.checker.history;

import isostress.checker.history.EdnParser.Keyword;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Jepsen EDN histories: one op map per form, {@code {:index 0 :type :invoke :process 3 :f :txn
 * :value [[:r 17 nil] [:append 17 4]]}}, as files, as a top-level vector, or as {@code #jepsen.history.Op{...}}
 * records. Ops without {@code :process} are each their own process (Elle's paper example).
 *
 * <p>Ops of {@code :process :nemesis} (Jepsen's faults: {@code :info} ops of {@code :f :start}, {@code :kill},
 * {@code :leave}, ...) are not client transactions: they are kept as {@link SideEvent}s, for writing back, and not
 * checked. Every other op must be a transaction ({@code :f :txn} or no {@code :f}) or, in a history of them only,
 * a single-register op, Knossos's {@code :f :read}, {@code :write} or {@code :cas} ({@link RegisterOp});
 * any other {@code :f} is refused with a sentence, never skipped, since skipping it would check an empty or partial
 * history and call it valid. Keys may be any scalar: {@code [:w :x 1]} ({@link KeyDictionary}).
 */
final class EdnReader implements HistoryReader {
    private static final Keyword INDEX = new Keyword("index"), TYPE = new Keyword("type"),
            PROCESS = new Keyword("process"), TIME = new Keyword("time"), F = new Keyword("f"),
            VALUE = new Keyword("value"), NODE = new Keyword("node"), ISOLATION = new Keyword("isolation"),
            REAL_TIME = new Keyword("real-time"), INITIAL = new Keyword("initial"),
            INITIAL_DEFAULT = new Keyword("initial-default"), NEMESIS = new Keyword("nemesis"),
            TXN = new Keyword("txn");

    @Override
    public History read(InputStream in, String source) throws IOException {
        EdnParser p = new EdnParser(new BufferedReader(new InputStreamReader(new StrictUtf8Stream(in, source),
                StandardCharsets.UTF_8), 1 << 16), source);
        EventAssembler asm = new EventAssembler(source);
        OpBuffer ops = new OpBuffer();
        Object form;
        while ((form = p.nextEvent()) != null) {
            int line = p.formLine();
            if (!(form instanceof Map)) {
                throw new InputException(source, line, "expected an op map like {:type :invoke ...}, got " + describe(form));
            }
            event((Map<?, ?>) form, line, asm, ops, source);
        }
        return asm.finish(p.line());
    }

    private static void event(Map<?, ?> m, int line, EventAssembler asm, OpBuffer ops, String source) {
        Object type = m.get(TYPE);
        if (!(type instanceof Keyword)) {
            throw new InputException(source, line, "missing or non-keyword :type (expected :invoke, :ok, :fail or :info)");
        }
        String typeName = ((Keyword) type).name();
        if (typeName.equals("header")) {
            Map<Long, Long> init = new LinkedHashMap<>();
            if (m.get(INITIAL) != null) {
                OpBuffer b = new OpBuffer();
                readOps(m.get(INITIAL), b, asm.keys, line, source);
                for (int i = 0; i < b.size; i++) init.put(b.key[i], b.value[i]);
            }
            asm.header(new InitialState(asLong(m.get(INITIAL_DEFAULT), "initial-default", line, source), init),
                    !Boolean.FALSE.equals(m.get(REAL_TIME)), line);
            return;
        }
        Long index = asLong(m.get(INDEX), "index", line, source);
        long idx = asm.index(index, line);
        Long time = asLong(m.get(TIME) instanceof Double ? (long) (double) (Double) m.get(TIME) : m.get(TIME),
                "time", line, source);
        Object f = m.get(F);
        Object process = m.get(PROCESS);
        if (NEMESIS.equals(process)) {
            // Faults and other nemesis events are not client transactions: kept for writing back, not checked.
            asm.side(new SideEvent(idx, time == null ? -1 : time, ednName(process), typeName, ednName(f),
                    m.get(VALUE) == null ? null : EdnWriter.toJson(m.get(VALUE))));
            return;
        }
        if (process != null && !(process instanceof Long)) {
            throw new InputException(source, line, ":process must be an integer (a client) or :nemesis, got "
                    + describe(process));
        }
        ops.clear();
        if (f instanceof Keyword && RegisterOp.isRegisterFunction(((Keyword) f).name())) {
            asm.shape(RegisterOp.read(((Keyword) f).name(), m.get(VALUE), asm.keys, ops, line, source), line);
        } else if (f != null && !TXN.equals(f)) {
            throw new InputException(source, line, "operation :f " + describe(f) + " is neither a transaction "
                    + "(:f :txn) nor a register op (:f :read, :write or :cas)");
        } else {
            if (!m.containsKey(VALUE)) {
                throw new InputException(source, line, "missing :value (the transaction's micro-ops)");
            }
            asm.shape("txn", line);
            readOps(m.get(VALUE), ops, asm.keys, line, source);
        }
        Long proc = (Long) process;
        long tm = time == null ? -1 : time;
        if (typeName.equals("invoke")) {
            asm.invoke(proc, idx, tm, line, ops);
        } else {
            Outcome out = Outcome.fromJepsen(typeName);
            if (out == null) {
                throw new InputException(source, line, "unknown :type :" + describe(typeName)
                        + " (expected :invoke, :ok, :fail or :info)");
            }
            asm.complete(out, proc, idx, tm, line, ops, str(m.get(NODE)), str(m.get(ISOLATION)));
        }
    }

    private static void readOps(Object value, OpBuffer ops, KeyDictionary keys, int line, String source) {
        if (!(value instanceof List)) {
            throw new InputException(source, line, ":value must be a vector of micro-ops, got " + describe(value));
        }
        for (Object o : (List<?>) value) {
            if (!(o instanceof List) || ((List<?>) o).size() != 3 || !(((List<?>) o).get(0) instanceof Keyword)) {
                throw new InputException(source, line, "expected a micro-op like [:r key value], got " + describe(o));
            }
            List<?> mop = (List<?>) o;
            String fn = ((Keyword) mop.get(0)).name();
            long key = keys.id(mop.get(1), line);
            Object v = mop.get(2);
            switch (fn) {
                case "r":
                    if (v == null) ops.read(key, 0, true);
                    else if (v instanceof Long) ops.read(key, (Long) v, false);
                    else if (v instanceof List) {
                        ops.listRead(key, false);
                        for (Object e : (List<?>) v) {
                            if (!(e instanceof Long)) {
                                throw new InputException(source, line, "list read of key " + keys.name(key)
                                        + ": elements must be integers, got " + describe(e));
                            }
                            ops.listElement((Long) e);
                        }
                    } else {
                        throw new InputException(source, line, "read of key " + keys.name(key)
                                + ": value must be an integer, a vector or nil, got " + describe(v));
                    }
                    break;
                case "w":
                case "append":
                    if (!(v instanceof Long)) {
                        throw new InputException(source, line, ":" + describe(fn) + " of key " + keys.name(key)
                                + ": value must be an integer, got " + describe(v));
                    }
                    if (fn.equals("w")) ops.write(key, (Long) v); else ops.append(key, (Long) v);
                    break;
                case "cas": {
                    if (!(v instanceof List) || ((List<?>) v).size() != 2 || !(((List<?>) v).get(1) instanceof Long)
                            || !(((List<?>) v).get(0) == null || ((List<?>) v).get(0) instanceof Long)) {
                        throw new InputException(source, line, ":cas of key " + keys.name(key)
                                + ": value must be [expected new] with integers, got " + describe(v));
                    }
                    Long exp = (Long) ((List<?>) v).get(0);
                    ops.cas(key, exp == null ? 0 : exp, exp == null, (Long) ((List<?>) v).get(1));
                    break;
                }
                default:
                    throw new InputException(source, line, "unknown micro-op :" + describe(fn)
                            + " (expected :r, :w, :append or :cas)");
            }
        }
    }

    private static Long asLong(Object o, String name, int line, String source) {
        if (o == null) return null;
        if (!(o instanceof Long)) throw new InputException(source, line, ":" + name + " must be an integer, got " + describe(o));
        return (Long) o;
    }

    private static String str(Object o) {
        if (o == null) return null;
        return o instanceof Keyword ? ((Keyword) o).name() : o.toString();
    }

    /** A value for a message: short, with EDN's spelling of keywords. */
    private static String describe(Object o) {
        return EdnParser.abbreviate(String.valueOf(o));
    }

    private static String ednName(Object o) {
        return o == null ? null : str(o);
    }
}
