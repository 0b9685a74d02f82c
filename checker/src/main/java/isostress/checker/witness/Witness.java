package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.model.WitnessTxn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A witness file read (docs/witness.md): the database's commit log, one entry per committed transaction, each with
 * its node, position, transaction id and writes.
 *
 * <p>Columns of primitive arrays, as {@link History} keeps them, so that a witness of ten million transactions
 * costs tens of bytes each; {@link #txn(int)} builds a {@link WitnessTxn} for reports. Transaction ids that are
 * decimal integers (PostgreSQL's xids) are kept as longs; a text column is made only once some id is not one
 * (MariaDB's GTIDs, {@code 0-1-42}). Keys are integers, or strings numbered by the reader (see {@link #keyName}).
 */
public final class Witness {
    /** Write kinds, as stored; a delete's value is 0 and means nothing. */
    static final byte WRITE = 0, APPEND = 1, DELETE = 2;

    private final String source;
    private final int size, writes;
    private final int[] nodeOf;
    private final List<String> nodes;
    private final long[] pos, txidNum, timeline;
    private final List<CaptureLog> logs;
    private final String[] txidText;
    private final int[] line, writeEnd;
    private final byte[] kind;
    private final long[] key, value;
    private final Map<Long, String> stringKeys;

    private Witness(Builder b) {
        source = b.source;
        size = b.size;
        writes = b.writes;
        nodeOf = Arrays.copyOf(b.nodeOf, size);
        nodes = List.copyOf(b.nodes);
        pos = Arrays.copyOf(b.pos, size);
        txidNum = Arrays.copyOf(b.txidNum, size);
        timeline = b.timeline == null ? null : Arrays.copyOf(b.timeline, size);
        logs = List.copyOf(b.logs);
        txidText = b.txidText == null ? null : Arrays.copyOf(b.txidText, size);
        line = Arrays.copyOf(b.line, size);
        writeEnd = Arrays.copyOf(b.writeEnd, size);
        kind = Arrays.copyOf(b.kind, writes);
        key = Arrays.copyOf(b.key, writes);
        value = Arrays.copyOf(b.value, writes);
        stringKeys = Map.copyOf(b.stringKeys);
    }

    /** The witness file's name, for messages. */
    public String source() { return source; }

    /** Log transactions. */
    public int size() { return size; }

    /** Writes over all log transactions. */
    public int writeCount() { return writes; }

    public String node(int t) { return nodes.get(nodeOf[t]); }

    /** The PostgreSQL timeline the line names ({@code "timeline"}), or -1 when it names none. */
    public long timeline(int t) { return timeline == null ? -1 : timeline[t]; }

    /**
     * The capture's account of each member's time as a primary ({@code log} lines), from a capture that follows a
     * moving primary; empty for every other capture, whose logs cover the whole run.
     */
    public List<CaptureLog> captureLogs() { return logs; }

    /** Every stretch of time in which some member may have committed what the file lacks. */
    public List<CaptureLog.Gap> gaps() {
        List<CaptureLog.Gap> out = new ArrayList<>();
        for (CaptureLog l : logs) out.addAll(l.gaps());
        return out;
    }

    /**
     * Logs the witness holds: one per node, or per node and timeline when the lines name timelines (a member's
     * positions increase only within one timeline: after a rewind it writes again from where another left).
     */
    int nodeCount() { return nodes.size(); }

    /** The node's number (its order of first appearance), for grouping without string compares. */
    int nodeIndex(int t) { return nodeOf[t]; }

    public long pos(int t) { return pos[t]; }

    public String txid(int t) { return txidText != null && txidText[t] != null ? txidText[t] : Long.toString(txidNum[t]); }

    /** 1-based line in the witness file, 0 when built in memory. */
    public int line(int t) { return line[t]; }

    int firstWrite(int t) { return t == 0 ? 0 : writeEnd[t - 1]; }

    int endWrite(int t) { return writeEnd[t]; }

    boolean isAppend(int w) { return kind[w] == APPEND; }

    /** A deleted row: no value, so no writer is looked up for it. */
    boolean isDelete(int w) { return kind[w] == DELETE; }

    byte kind(int w) { return kind[w]; }

    long key(int w) { return key[w]; }

    long value(int w) { return value[w]; }

    /**
     * String keys by the id the reader gave them (counted up from {@link Long#MIN_VALUE}), spelled with their quotes as
     * a JSON history's string keys are ({@code "x"}); empty when every key is an integer.
     */
    Map<Long, String> stringKeys() { return stringKeys; }

    /** Log transaction {@code t} as a record (allocates; for reports), its keys as the witness's ids. */
    public WitnessTxn txn(int t) {
        List<MicroOp> ws = new ArrayList<>(endWrite(t) - firstWrite(t));
        for (int w = firstWrite(t); w < endWrite(t); w++) {
            ws.add(op(kind[w], key[w], value[w]));
        }
        return new WitnessTxn(node(t), timeline(t), pos[t], txid(t), line[t], ws);
    }

    /** A stored write as an op: {@code w}, {@code append} (the element appended) or {@code delete}. */
    static MicroOp op(byte kind, long key, long value) {
        switch (kind) {
            case APPEND: return new MicroOp.Append(key, value);
            case DELETE: return new MicroOp.Delete(key);
            default: return new MicroOp.Write(key, value);
        }
    }

    public static Builder builder(String source) {
        return new Builder(source);
    }

    /**
     * Builds a witness: {@link #begin}, then {@link #write}/{@link #append}/{@link #delete}, then the next
     * {@link #begin}.
     */
    public static final class Builder {
        private final String source;
        private int size = 0, writes = 0;
        private int[] nodeOf = new int[16], line = new int[16], writeEnd = new int[16];
        private long[] pos = new long[16], txidNum = new long[16], timeline;
        private final List<CaptureLog> logs = new ArrayList<>();
        private String[] txidText;
        private final List<String> nodes = new ArrayList<>();
        private final Map<String, Integer> nodeIds = new HashMap<>();
        private long[] lastPos = new long[4];
        private byte[] kind = new byte[64];
        private long[] key = new long[64], value = new long[64];
        private final Map<String, Long> stringKeyIds = new HashMap<>();
        private final Map<Long, String> stringKeys = new HashMap<>();
        private long nextStringKey = Long.MIN_VALUE;

        private Builder(String source) {
            this.source = source;
        }

        /**
         * Starts a log transaction.
         *
         * @return null, or why it cannot follow the ones before (its position does not increase within its node)
         */
        public String begin(String node, long position, String txid, int srcLine) {
            return begin(node, -1, position, txid, srcLine);
        }

        /** As {@link #begin(String, long, String, int)}, on PostgreSQL timeline {@code tl} of the node (-1: none). */
        public String begin(String node, long tl, long position, String txid, int srcLine) {
            Long num = canonicalLong(txid);
            String why = open(node, tl, position, srcLine);
            if (why != null) return why;
            if (num != null) {
                txidNum[size - 1] = num;
            } else {
                if (txidText == null) txidText = new String[pos.length];
                txidText[size - 1] = txid;
            }
            return null;
        }

        /** As {@link #begin(String, long, String, int)}, the transaction id a number written canonically. */
        String begin(String node, long position, long txid, int srcLine) {
            String why = open(node, -1, position, srcLine);
            if (why == null) txidNum[size - 1] = txid;
            return why;
        }

        private String lastNode;
        private int lastNodeId;

        private String open(String node, long tl, long position, int srcLine) {
            // The reader's fast path hands the same string for the same node: no map lookup a line.
            String log = tl < 0 ? node : node + "\u0000timeline " + tl;
            Integer n = log == lastNode ? Integer.valueOf(lastNodeId) : nodeIds.get(log);
            if (n == null) {
                n = nodes.size();
                nodes.add(node);
                nodeIds.put(log, n);
                if (n == lastPos.length) lastPos = Arrays.copyOf(lastPos, n * 2);
            } else if (position <= lastPos[n]) {
                return "\"pos\" " + position + " does not increase within node \"" + node + "\""
                        + (tl < 0 ? "" : " on timeline " + tl) + " (the one before is " + lastPos[n] + ")";
            }
            lastPos[n] = position;
            lastNode = log;
            lastNodeId = n;
            if (size == pos.length) {
                int c = size + (size >> 1);
                nodeOf = Arrays.copyOf(nodeOf, c);
                line = Arrays.copyOf(line, c);
                writeEnd = Arrays.copyOf(writeEnd, c);
                pos = Arrays.copyOf(pos, c);
                txidNum = Arrays.copyOf(txidNum, c);
                if (txidText != null) txidText = Arrays.copyOf(txidText, c);
                if (timeline != null) timeline = Arrays.copyOf(timeline, c);
            }
            if (tl >= 0 && timeline == null) {
                timeline = new long[pos.length];
                Arrays.fill(timeline, 0, size, -1);
            }
            if (timeline != null) timeline[size] = tl;
            nodeOf[size] = n;
            pos[size] = position;
            line[size] = srcLine;
            writeEnd[size] = writes;
            size++;
            return null;
        }

        boolean hasStringKeys() {
            return nextStringKey != Long.MIN_VALUE;
        }

        /** The highest id given to a string key so far (when {@link #hasStringKeys()}). */
        long lastStringKey() {
            return nextStringKey - 1;
        }

        /** How key {@code id} is written in messages: {@code "x"} for a string key, else the integer. */
        String keyName(long id) {
            String s = stringKeys.get(id);
            return s != null ? s : Long.toString(id);
        }

        /** A capture's account of one member's time as a primary on one timeline (a {@code log} line). */
        public void log(CaptureLog l) { logs.add(l); }

        public void write(long k, long v) { add(WRITE, k, v); }

        public void append(long k, long v) { add(APPEND, k, v); }

        /** A deleted row of key {@code k}. */
        public void delete(long k) { add(DELETE, k, 0); }

        /** The id of string key {@code s} (its spelling in messages is {@code "s"}, with quotes). */
        public long stringKey(String s) {
            Long id = stringKeyIds.get(s);
            if (id != null) return id;
            long n = nextStringKey++;
            stringKeyIds.put(s, n);
            stringKeys.put(n, "\"" + s + "\"");
            return n;
        }

        /** A write of kind {@link #WRITE}, {@link #APPEND} or {@link #DELETE} (value 0). */
        void add(byte k, long kk, long v) {
            if (size == 0) throw new IllegalStateException("no log transaction begun");
            if (writes == kind.length) {
                int c = writes + (writes >> 1);
                kind = Arrays.copyOf(kind, c);
                key = Arrays.copyOf(key, c);
                value = Arrays.copyOf(value, c);
            }
            kind[writes] = k;
            key[writes] = kk;
            value[writes] = v;
            writes++;
            writeEnd[size - 1] = writes;
        }

        public Witness build() {
            return new Witness(this);
        }

        /** {@code s} as a long when it is one written canonically ({@code 731}, not {@code 0731} or {@code +731}). */
        private static Long canonicalLong(String s) {
            if (s.isEmpty() || s.length() > 19) return null;
            try {
                long v = Long.parseLong(s);
                return Long.toString(v).equals(s) ? v : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
