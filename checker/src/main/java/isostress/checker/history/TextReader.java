package isostress.checker.history;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads the text format of MTC, PolySI and IsoVista: one op per line, {@code r(key,value,session,txn)} or
 * {@code w(key,value,session,txn)}.
 *
 * <p>Conventions of that format (checker/src/test/resources/corpus/README.md): a transaction is the pair (session, txn), since some files
 * reuse a txn number in two sessions; order within a session is the order of first appearance; every transaction is
 * committed, except that txn {@code -1} marks an aborted write (Plume's and AWDIT's convention, {@code w(k,v,s,-1)}):
 * those become one failed transaction per session, at the end, so that a read of one is an aborted read, and reads
 * marked {@code -1} are skipped, as Plume and AWDIT skip them. There is no real-time order. Initial values come in one
 * of two forms, detected here: an explicit
 * initial transaction (session 0 holding a single write-only transaction) becomes the {@link InitialState};
 * otherwise, when no transaction writes the value 0, every key starts at 0 (PolySI's implicit initial transaction).
 *
 * <p>A hand-written byte scanner: a million-transaction file has three million lines, and this parses them in a
 * fraction of a second without creating a string per line.
 */
final class TextReader implements HistoryReader {

    @Override
    public History read(InputStream in, String source) throws IOException {
        Scanner s = new Scanner(in, source);
        int n = 0;
        byte[] kind = new byte[1024];
        long[] key = new long[1024], value = new long[1024];
        int[] slotOf = new int[1024];
        LongPairIntMap slots = new LongPairIntMap(1024);
        long[] slotSession = new long[256], slotTxn = new long[256];
        int[] slotLine = new int[256];
        int slotCount = 0;
        boolean writesZero = false;
        long lastSess = 0, lastTx = 0, maxTx = Long.MIN_VALUE;
        AbortedWrites aborted = new AbortedWrites();
        boolean useMap = false, contiguous = true;
        while (s.skipBlankLines()) {
            int line = s.line;
            int c = s.next();
            byte kd;
            if (c == 'r') kd = History.READ;
            else if (c == 'w') kd = History.WRITE;
            else throw s.error("expected r(key,value,session,txn) or w(key,value,session,txn)");
            s.expect('(');
            long k = s.number("key");
            s.expect(',');
            long v = s.number("value");
            s.expect(',');
            long sess = s.number("session");
            s.expect(',');
            long tx = s.number("txn");
            s.expect(')');
            s.endOfLine();
            if (tx == -1) {
                if (kd == History.WRITE) aborted.add(sess, k, v, line);
                continue;
            }
            if (n == kind.length) {
                kind = Arrays.copyOf(kind, n * 2);
                key = Arrays.copyOf(key, n * 2);
                value = Arrays.copyOf(value, n * 2);
                slotOf = Arrays.copyOf(slotOf, n * 2);
            }
            // Consecutive lines usually belong to one transaction, and transaction numbers usually grow: then a new
            // (session, txn) pair is certainly new and needs no lookup. Only files that break this pay for the map.
            int slot;
            if (n > 0 && sess == lastSess && tx == lastTx) {
                slot = slotOf[n - 1];
            } else if (!useMap && tx > maxTx) {
                slot = LongPairIntMap.MISSING;
            } else {
                if (!useMap) {
                    useMap = true;
                    for (int i = 0; i < slotCount; i++) slots.put(slotSession[i], slotTxn[i], i);
                }
                slot = slots.get(sess, tx);
            }
            lastSess = sess;
            lastTx = tx;
            if (tx > maxTx) maxTx = tx;
            if (slot == LongPairIntMap.MISSING) {
                slot = slotCount++;
                if (useMap) slots.put(sess, tx, slot);
                if (slot == slotSession.length) {
                    slotSession = Arrays.copyOf(slotSession, slot * 2);
                    slotTxn = Arrays.copyOf(slotTxn, slot * 2);
                    slotLine = Arrays.copyOf(slotLine, slot * 2);
                }
                slotSession[slot] = sess;
                slotTxn[slot] = tx;
                slotLine[slot] = line;
            } else if (slot != slotOf[n - 1]) {
                contiguous = false;
            }
            kind[n] = kd;
            key[n] = k;
            value[n] = v;
            slotOf[n] = slot;
            if (kd == History.WRITE && v == 0) writesZero = true;
            n++;
        }

        // Group ops by transaction (counting sort keeps each transaction's ops in file order), unless every
        // transaction's lines were contiguous, in which case file order is already grouped.
        int[] start = new int[slotCount + 1];
        for (int i = 0; i < n; i++) start[slotOf[i] + 1]++;
        for (int t = 0; t < slotCount; t++) start[t + 1] += start[t];
        int[] order = new int[n];
        if (contiguous) {
            for (int i = 0; i < n; i++) order[i] = i;
        } else {
            int[] fill = Arrays.copyOf(start, slotCount);
            for (int i = 0; i < n; i++) order[fill[slotOf[i]]++] = i;
        }

        int initSlot = explicitInitialTxn(slotCount, slotSession, start, order, kind);
        if (slotCount - (initSlot >= 0 ? 1 : 0) == 0 && aborted.n == 0) {
            throw EventAssembler.noTransactions(source, s.line, 0);
        }
        History.Builder b = History.builder().source(source).realTime(false).ensureCapacity(slotCount, n);
        if (initSlot >= 0) {
            java.util.Map<Long, Long> init = new java.util.LinkedHashMap<>();
            for (int j = start[initSlot]; j < start[initSlot + 1]; j++) init.put(key[order[j]], value[order[j]]);
            b.initial(new InitialState(null, init));
        } else if (!writesZero) {
            b.initial(InitialState.allKeys(0L));
        }
        long idx = 0;
        for (int t = 0; t < slotCount; t++) {
            if (t == initSlot) continue;
            b.beginTxn(slotSession[t], Outcome.OK, idx, idx + 1, -1, -1, slotLine[t]);
            idx += 2;
            for (int j = start[t]; j < start[t + 1]; j++) {
                int i = order[j];
                if (kind[i] == History.READ) b.read(key[i], value[i]); else b.write(key[i], value[i]);
            }
            b.endTxn();
        }
        aborted.addTo(b, idx);
        return b.build();
    }

    /** The writes of txn -1, each session's kept together in file order. */
    private static final class AbortedWrites {
        private final java.util.Map<Long, java.util.List<long[]>> bySession = new java.util.LinkedHashMap<>();
        int n;

        void add(long session, long key, long value, int line) {
            bySession.computeIfAbsent(session, x -> new java.util.ArrayList<>()).add(new long[] {key, value, line});
            n++;
        }

        /** One failed transaction per session, after the committed ones. */
        void addTo(History.Builder b, long idx) {
            for (var e : bySession.entrySet()) {
                b.beginTxn(e.getKey(), Outcome.FAIL, idx, idx + 1, -1, -1, (int) e.getValue().get(0)[2]);
                idx += 2;
                for (long[] w : e.getValue()) b.write(w[0], w[1]);
                b.endTxn();
            }
        }
    }

    /** The slot of an explicit initial transaction: session 0's only transaction, holding writes only; else -1. */
    private static int explicitInitialTxn(int slotCount, long[] slotSession, int[] start, int[] order, byte[] kind) {
        int found = -1;
        for (int t = 0; t < slotCount; t++) {
            if (slotSession[t] != 0) continue;
            if (found >= 0) return -1; // session 0 has several transactions: an ordinary session
            found = t;
        }
        if (found < 0) return -1;
        for (int j = start[found]; j < start[found + 1]; j++) if (kind[order[j]] != History.WRITE) return -1;
        return found;
    }

    /**
     * Byte scanner with line tracking over large chunks: the input is read up to 4 MB at a time into one array and
     * scanned with a cursor, so the per-byte work is an array read and a comparison (a line is about 15 bytes). The
     * array starts at 64 KB and doubles with each refill, so a small file does not pay for 4 MB.
     */
    private static final class Scanner {
        private final InputStream in;
        private final String source;
        private static final int MAX_BUFFER = 1 << 22;
        private byte[] buf = new byte[1 << 16];
        private int pos, lim;
        private boolean eof;
        int line = 1;

        Scanner(InputStream in, String source) {
            this.in = in;
            this.source = source;
        }

        /** Makes at least {@code need} bytes available after pos unless the input ends first. */
        private void fill(int need) throws IOException {
            if (lim - pos >= need || eof) return;
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                lim -= pos;
                pos = 0;
            }
            if (lim > 0 && buf.length < MAX_BUFFER) buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            while (lim < buf.length && lim - pos < need) {
                int r = in.read(buf, lim, buf.length - lim);
                if (r < 0) {
                    eof = true;
                    return;
                }
                lim += r;
            }
        }

        int peek() throws IOException {
            if (pos == lim) {
                fill(1);
                if (pos == lim) return -1;
            }
            return buf[pos] & 0xff;
        }

        int next() throws IOException {
            int c = peek();
            if (c >= 0) pos++;
            return c;
        }

        /** Skips blank lines and leading spaces; false at end of input. Ensures a whole line is buffered. */
        boolean skipBlankLines() throws IOException {
            while (true) {
                int c = peek();
                if (c == -1) return false;
                if (c == '\n') {
                    pos++;
                    line++;
                } else if (c == ' ' || c == '\t' || c == '\r') {
                    pos++;
                } else {
                    fill(256); // a line fits: the number parsing below then rarely crosses the buffer's end
                    return true;
                }
            }
        }

        void skipSpaces() throws IOException {
            int c;
            while ((c = peek()) == ' ' || c == '\t') pos++;
        }

        void expect(char ch) throws IOException {
            if (pos < lim && buf[pos] == ch) {
                pos++;
                return;
            }
            skipSpaces();
            if (peek() != ch) throw error("expected '" + ch + "'");
            pos++;
        }

        long number(String what) throws IOException {
            if (pos >= lim || buf[pos] == ' ' || buf[pos] == '\t') skipSpaces();
            boolean neg = false;
            if (peek() == '-') {
                neg = true;
                pos++;
            }
            int c = peek();
            if (c < '0' || c > '9') throw error("expected an integer " + what);
            long v = 0;
            int digits = 0;
            while (true) {
                if (pos == lim) fill(1);
                if (pos == lim) break;
                c = buf[pos];
                if (c < '0' || c > '9') break;
                // 18 digits always fit in a long; only longer numbers need the (slow, dividing) overflow test.
                if (++digits > 18 && v > (Long.MAX_VALUE - (c - '0')) / 10) {
                    throw error("integer " + what + " too large");
                }
                v = v * 10 + (c - '0');
                pos++;
            }
            return neg ? -v : v;
        }

        void endOfLine() throws IOException {
            int c;
            while ((c = peek()) == ' ' || c == '\t' || c == '\r') pos++;
            if (c == '\n') {
                pos++;
                line++;
            } else if (c != -1) {
                throw error("unexpected text after ')'");
            }
        }

        InputException error(String what) {
            return new InputException(source, line, what + " (lines look like r(key,value,session,txn) or "
                    + "w(key,value,session,txn))");
        }
    }
}
