package isostress.checker.history;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads histories of dbcop, Biswas and Enea's checker (OOPSLA'19, github.com/rnbguy/dbcop), so that its executed
 * histories (and those of the tools built on it, such as PolySI's) can be checked here. Three encodings, told apart
 * by the first bytes (JSON text never holds a NUL byte; bincode's leading u64 always does):
 *
 * <ul>
 * <li><b>Legacy JSON</b>, serde_json of {@code dbcop::db::history::History} (dbcop 2019, its forks, and the
 * {@code dbcop convert --from bincode} output): {@code {"params":{...},"info":"...","start":"...","end":"...",
 * "data":[session,...]}}, a session a list of {@code {"events":[...],"success":bool}}, an event
 * {@code {"write":bool,"variable":n,"value":n,"success":bool}}. A bare {@code [session,...]} is read too.</li>
 * <li><b>Current JSON</b> (rnbguy/dbcop 2025, {@code schemas/history.schema.json}): {@code [session,...]} (or the
 * same {@code {"params":..,"data":[...]}} wrapper its generator writes), a transaction
 * {@code {"events":[...],"committed":bool}}, an event {@code {"Write":{"variable":n,"version":n}}},
 * {@code {"Read":{"variable":n,"version":n|null}}}, or the compact {@code ["w",n,n]} / {@code ["r",n,n|null]}.</li>
 * <li><b>Bincode</b> ({@code history.bincode}, dbcop's default): bincode 1.x of the legacy struct, little-endian,
 * fixed-width: five u64 params (id, n_node, n_variable, n_transaction, n_event); info, start and end as u64 length
 * + UTF-8; then u64 session count, per session a u64 transaction count, per transaction a u64 event count, per event
 * {@code write:u8, variable:u64, value:u64, success:u8}, then the transaction's {@code success:u8} (the layout
 * PolySI's {@code DBCopHistoryLoader} reads).</li>
 * </ul>
 *
 * <p>Mapping: session i is process i, its transactions in list order; a transaction with {@code success} (or
 * {@code committed}) false is {@code fail}; an event with {@code success:false} never executed and is skipped;
 * reads and writes are register ops r(variable, value), w(variable, value). There is no real-time order.
 *
 * <p>Initial values: dbcop writes unique non-zero values and every variable starts at 0 (the table is created with
 * zeros; dbcop's verifier maps a read of 0 to its root transaction, PolySI adds an initial transaction writing 0 to
 * every key). So every key starts at 0. Current dbcop also allows an explicit {@code x:=0} write (its generator puts
 * one for every variable in the first session); then "reads of 0 use that writer, not the root"
 * ({@code crates/core/tests/version_zero.rs}), so a key some transaction writes 0 to starts absent instead, and a
 * read of 0 reads that write. (Legacy dbcop has no such rule: its verifier either panics "each write should be
 * unique" or asserts that a read of 0 reads its root, and PolySI's initial transaction would write 0 a second
 * time.) A read with version {@code null} reads the initial state, as dbcop's {@code x==?} does.
 *
 * <p>{@link DbcopJson} and {@link DbcopBincode} parse; this class sniffs the encoding and builds the history.
 */
final class DbcopReader implements HistoryReader {
    @Override
    public History read(InputStream in, String source) throws IOException {
        BufferedInputStream bin = new BufferedInputStream(in, 1 << 16);
        bin.mark(8);
        byte[] head = bin.readNBytes(8);
        bin.reset();
        boolean binary = false;
        for (byte b : head) if (b == 0) binary = true;
        Parsed out = new Parsed();
        if (binary) new DbcopBincode(bin, source, out).read(); else DbcopJson.read(bin, source, out);
        return out.build(source);
    }

    /** Transactions and ops as parsed; the initial state depends on every write, so the history is built last. */
    static final class Parsed {
        int txns, ops;
        long[] process = new long[64];
        byte[] outcome = new byte[64];
        int[] line = new int[64], opStart = new int[65];
        boolean[] write = new boolean[256], initialRead = new boolean[256];
        long[] key = new long[256], value = new long[256];

        void op(boolean w, long k, long v, boolean initial) {
            if (ops == key.length) {
                int n = ops * 2;
                write = Arrays.copyOf(write, n);
                initialRead = Arrays.copyOf(initialRead, n);
                key = Arrays.copyOf(key, n);
                value = Arrays.copyOf(value, n);
            }
            write[ops] = w;
            key[ops] = k;
            value[ops] = v;
            initialRead[ops] = initial;
            ops++;
        }

        /** Closes a transaction whose ops are those added since {@code first}. */
        void txn(long proc, Outcome out, int srcLine, int first) {
            if (txns == process.length) {
                int n = txns * 2;
                process = Arrays.copyOf(process, n);
                outcome = Arrays.copyOf(outcome, n);
                line = Arrays.copyOf(line, n);
                opStart = Arrays.copyOf(opStart, n + 1);
            }
            process[txns] = proc;
            outcome[txns] = (byte) out.ordinal();
            line[txns] = srcLine;
            opStart[txns] = first;
            txns++;
            opStart[txns] = ops;
        }

        History build(String source) {
            Set<Long> writesZero = new HashSet<>();
            for (int i = 0; i < ops; i++) if (write[i] && value[i] == 0) writesZero.add(key[i]);
            InitialState initial;
            if (writesZero.isEmpty()) {
                initial = InitialState.allKeys(0L);
            } else {
                Map<Long, Long> zero = new HashMap<>();
                for (int i = 0; i < ops; i++) if (!writesZero.contains(key[i])) zero.put(key[i], 0L);
                initial = new InitialState(null, zero);
            }
            Outcome[] outcomes = Outcome.values();
            History.Builder b = History.builder().source(source).realTime(false).initial(initial)
                    .ensureCapacity(txns, ops);
            for (int t = 0; t < txns; t++) {
                b.beginTxn(process[t], outcomes[outcome[t]], 2L * t, 2L * t + 1, -1, -1, line[t]);
                for (int i = opStart[t]; i < opStart[t + 1]; i++) {
                    if (write[i]) b.write(key[i], value[i]);
                    else if (initialRead[i]) b.read(key[i], initial.valueOf(key[i]));
                    else b.read(key[i], value[i]);
                }
                b.endTxn();
            }
            return b.build();
        }
    }
}
