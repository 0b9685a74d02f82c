package isostress.checker.history;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Cobra's client logs (Tan et al., OSDI'20: github.com/DBCobra/CobraVerifier, read by PolySI too), so that
 * histories recorded by Cobra's instrumented clients can be checked here. A Cobra history is a directory holding one
 * binary log per client thread, {@code T<thread id>.log}; {@link #read(Path)} reads the directory, the
 * {@link HistoryReader} method reads one log as a single process.
 *
 * <p>The log is a sequence of records in Java's big-endian {@code DataOutput}/{@code ByteBuffer} encoding, as
 * written by CobraBench's {@code LogEntry.toOplogEntry_keyhash} (via {@code ChengLogger}) and parsed by
 * CobraVerifier's {@code AbstractVerifier.ExtractClientLogFromStream}:
 * <pre>
 *   'S' txnId:i64                                   start of a transaction (9 bytes)
 *   'C' txnId:i64                                   commit (9 bytes)
 *   'A' txnId:i64                                   abort (9 bytes; defined, but the client drops aborted txns)
 *   'W' writeId:i64 keyHash:i64 valueHash:i64       write (25 bytes)
 *   'R' writeTxnId:i64 writeId:i64 keyHash:i64 valueHash:i64   read (33 bytes)
 * </pre>
 * Keys are xxHash64 hashes of the key strings and stay those longs. Cobra identifies versions by write id (unique
 * per write; values are only hashed), so a write is w(keyHash, writeId) and a read r(keyHash, writeId), as PolySI's
 * {@code CobraHistoryLoader} does. Each log is a process (numbered by the n of {@code T<n>.log} when every log is so
 * named, else by the file's place in name order), its transactions in file order; {@code C} is {@code ok},
 * {@code A} {@code fail}. There is no real-time order (Cobra's optional timestamps are not in these logs).
 *
 * <p>Initial state: a read of a value the workload's loader wrote, or of a missing key, carries the write id
 * {@code INIT_WRITE_ID} (0xbebeebee) or {@code NULL_WRITE_ID} (0xdeadbeef) and the writer {@code INIT_TXN_ID} or
 * {@code NULL_TXN_ID}; Cobra's verifier treats both as reads of its implicit initial transaction. Here every key
 * starts at the value 0xbebeebee ({@code InitialState.allKeys(INIT_WRITE_ID)}) and such reads read that value, so
 * they read the initial state. Reads of Cobra's garbage-collection key (writer INIT_TXN_ID, write id
 * {@code GC_WID_TRUE}/{@code GC_WID_FALSE}) are bookkeeping, not workload, and are skipped. A delete is logged as a
 * write of {@code DELETE_WRITE_ID} (0xabcdefab), kept as such: two deletes of one key break unique values, as they
 * break Cobra's own verifier.
 */
final class CobraReader implements HistoryReader {
    /** CobraBench {@code LibConstants} / CobraVerifier {@code VeriConstants}. */
    static final long INIT_WRITE_ID = 0xbebeebeeL, INIT_TXN_ID = 0xbebeebeeL, NULL_WRITE_ID = 0xdeadbeefL,
            NULL_TXN_ID = 0xdeadbeefL, GC_WID_TRUE = 0x23332333L, GC_WID_FALSE = 0x66666666L;

    private static final Pattern THREAD_LOG = Pattern.compile("T(\\d{1,18})\\.log");

    /** Reads one client log as process 0. */
    @Override
    public History read(InputStream in, String source) throws IOException {
        History.Builder b = builder(source);
        new Log(in, source, 0, b).read();
        return build(b, source);
    }

    /**
     * Reads a Cobra history: every {@code *.log} file of directory {@code dir}, one process each; or a single log
     * file when {@code dir} is a file.
     */
    public static History read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            try (InputStream in = Files.newInputStream(dir)) {
                return new CobraReader().read(in, dir.toString());
            }
        }
        List<Path> logs = logs(dir);
        if (logs.isEmpty()) {
            throw new InputException(dir.toString(), 0, "no *.log files: a Cobra history is a directory of client "
                    + "logs T<n>.log");
        }
        boolean threadNames = true;
        Set<Long> numbers = new HashSet<>();
        for (Path p : logs) {
            Matcher m = THREAD_LOG.matcher(p.getFileName().toString());
            threadNames &= m.matches() && numbers.add(Long.parseLong(m.group(1)));
        }
        History.Builder b = builder(dir.toString());
        for (int i = 0; i < logs.size(); i++) {
            Path p = logs.get(i);
            long process = i;
            if (threadNames) {
                Matcher m = THREAD_LOG.matcher(p.getFileName().toString());
                m.matches();
                process = Long.parseLong(m.group(1));
            }
            try (InputStream in = Files.newInputStream(p)) {
                new Log(in, p.toString(), process, b).read();
            }
        }
        return build(b, dir.toString());
    }

    /** The history, unless the logs hold no transaction: binary logs have no lines, so none is named. */
    private static History build(History.Builder b, String source) {
        if (b.size() == 0) {
            throw new InputException(source, 0, "no transactions: the logs hold no Cobra records, and an empty "
                    + "history is not a valid one");
        }
        return b.build();
    }

    /** True when {@code dir} is a directory holding at least one {@code *.log} file. */
    public static boolean hasLogs(Path dir) throws IOException {
        return Files.isDirectory(dir) && !logs(dir).isEmpty();
    }

    /** The {@code *.log} files of {@code dir}, in name order with numbers compared as numbers (T2 before T10). */
    static List<Path> logs(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.log")) {
            for (Path p : ds) if (Files.isRegularFile(p)) out.add(p);
        }
        out.sort((a, b) -> naturalCompare(a.getFileName().toString(), b.getFileName().toString()));
        return out;
    }

    private static int naturalCompare(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) return c;
            } else {
                if (x != y) return Character.compare(x, y);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static History.Builder builder(String source) {
        return History.builder().source(source).realTime(false).initial(InitialState.allKeys(INIT_WRITE_ID));
    }

    /**
     * True when {@code head} (the first bytes of a file, {@code n} of them) parses as a sequence of Cobra records
     * starting with a transaction start, up to its end or the end of the head: used to detect a single log file.
     */
    static boolean looksLikeLog(byte[] head, int n) {
        if (n < 9 || head[0] != 'S') return false;
        int pos = 0, records = 0;
        boolean open = false;
        while (pos < n) {
            int len;
            switch (head[pos]) {
                case 'S': if (open) return false; open = true; len = 9; break;
                case 'C': case 'A': if (!open) return false; open = false; len = 9; break;
                case 'W': if (!open) return false; len = 25; break;
                case 'R': if (!open) return false; len = 33; break;
                default: return false;
            }
            if (pos + len > n) return records > 0; // the head ends inside a record
            pos += len;
            records++;
        }
        return true;
    }

    /** One log file, record by record. */
    private static final class Log {
        private final DataInputStream in;
        private final String source;
        private final long process;
        private final History.Builder b;
        private long record, offset, recordOffset;

        Log(InputStream in, String source, long process, History.Builder b) {
            this.in = new DataInputStream(new BufferedInputStream(in, 1 << 16));
            this.source = source;
            this.process = process;
            this.b = b;
        }

        void read() throws IOException {
            int open = -1;
            long openId = 0, openRecord = 0;
            while (true) {
                recordOffset = offset;
                int tag = in.read();
                if (tag < 0) break;
                offset++;
                record++;
                switch (tag) {
                    case 'S': {
                        long id = i64("transaction id");
                        if (open >= 0) {
                            throw error("transaction " + id + " starts while transaction " + openId + " (record "
                                    + openRecord + ") has neither committed nor aborted");
                        }
                        long idx = 2L * b.size();
                        open = b.beginTxn(process, Outcome.OK, idx, idx + 1, -1, -1, 0);
                        openId = id;
                        openRecord = record;
                        break;
                    }
                    case 'C':
                    case 'A': {
                        long id = i64("transaction id");
                        String what = tag == 'C' ? "commit" : "abort";
                        if (open < 0) throw error(what + " of transaction " + id + " outside a transaction");
                        if (id != openId) {
                            throw error(what + " of transaction " + id + " inside transaction " + openId + " (record "
                                    + openRecord + ")");
                        }
                        b.endTxn();
                        if (tag == 'A') b.complete(open, Outcome.FAIL, 2L * open + 1, -1, 0);
                        open = -1;
                        break;
                    }
                    case 'W': {
                        long wid = i64("write id"), key = i64("key hash");
                        i64("value hash");
                        if (open < 0) throw error("write outside a transaction");
                        if (wid == INIT_WRITE_ID || wid == NULL_WRITE_ID) {
                            throw error("a write with Cobra's reserved write id 0x" + Long.toHexString(wid)
                                    + ", which marks reads of the initial state");
                        }
                        b.write(key, wid);
                        break;
                    }
                    case 'R': {
                        long writer = i64("writer transaction id"), wid = i64("write id"), key = i64("key hash");
                        i64("value hash");
                        if (open < 0) throw error("read outside a transaction");
                        if (writer == INIT_TXN_ID || writer == NULL_TXN_ID) {
                            if (wid == INIT_WRITE_ID || wid == NULL_WRITE_ID) {
                                // A read of the initial state; Cobra merges NULL into INIT ("separate NULL and INIT?").
                                wid = INIT_WRITE_ID;
                            } else if (writer == INIT_TXN_ID && (wid == GC_WID_TRUE || wid == GC_WID_FALSE)) {
                                break; // a read of the garbage-collection key
                            } else {
                                throw error("a read from Cobra's initial transaction 0x" + Long.toHexString(writer)
                                        + " with write id 0x" + Long.toHexString(wid) + ", which is neither the "
                                        + "initial write id nor a garbage-collection one");
                            }
                        }
                        b.read(key, wid);
                        break;
                    }
                    default:
                        throw error(String.format("unknown record type 0x%02x (records start with S, C, A, R or W)",
                                tag));
                }
            }
            if (open >= 0) {
                throw new InputException(source, 0, "the log ends inside transaction " + openId + ", started at "
                        + "record " + openRecord + " (a truncated log?)");
            }
        }

        private long i64(String what) throws IOException {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                int c = in.read();
                if (c < 0) throw error("truncated record: the log ends inside its " + what);
                v = (v << 8) | c;
            }
            offset += 8;
            return v;
        }

        private InputException error(String what) {
            return new InputException(source, 0, "record " + record + " (byte " + recordOffset + "): " + what);
        }
    }
}
