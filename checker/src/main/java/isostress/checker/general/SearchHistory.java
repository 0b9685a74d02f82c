package isostress.checker.general;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A committed history reduced to what {@link PrefixSearch} needs: sessions, and per transaction the version each
 * external read returned (the writer transaction, or -1 for the initial version) and the keys it writes. Keys and
 * transactions are dense ints. Built with {@link Builder}.
 */
public final class SearchHistory {
    final int n, sessions, keys;
    final int[] sessionOf, indexInSession, sessionStart, sessionTxns;
    final int[] readStart, readKey, readSrc;
    final int[] writeStart, writeKey;

    private SearchHistory(Builder b) {
        n = b.txnSession.size();
        keys = b.keys;
        sessions = b.sessions;
        sessionOf = new int[n];
        indexInSession = new int[n];
        sessionStart = new int[sessions + 1];
        for (int t = 0; t < n; t++) {
            sessionOf[t] = b.txnSession.get(t);
            sessionStart[sessionOf[t] + 1]++;
        }
        for (int s = 0; s < sessions; s++) sessionStart[s + 1] += sessionStart[s];
        sessionTxns = new int[n];
        int[] fill = Arrays.copyOf(sessionStart, sessions);
        for (int t = 0; t < n; t++) {
            int s = sessionOf[t];
            indexInSession[t] = fill[s] - sessionStart[s];
            sessionTxns[fill[s]++] = t;
        }
        readStart = b.readStart.stream().mapToInt(Integer::intValue).toArray();
        readKey = Arrays.copyOf(b.readKey, b.reads);
        readSrc = Arrays.copyOf(b.readSrc, b.reads);
        writeStart = b.writeStart.stream().mapToInt(Integer::intValue).toArray();
        writeKey = Arrays.copyOf(b.writeKey, b.writes);
    }

    public int size() {
        return n;
    }

    /**
     * Builds a search history. Transactions are added in session order within each session: begin one, add its
     * reads and writes, end it.
     */
    public static final class Builder {
        private final int keys, sessions;
        private final List<Integer> txnSession = new ArrayList<>();
        private final List<Integer> readStart = new ArrayList<>(List.of(0));
        private final List<Integer> writeStart = new ArrayList<>(List.of(0));
        private int reads, writes;
        private int[] readKey = new int[16], readSrc = new int[16], writeKey = new int[16];
        private boolean open;

        /** @param keys number of dense keys; @param sessions number of sessions */
        public Builder(int keys, int sessions) {
            this.keys = keys;
            this.sessions = sessions;
        }

        /** Starts the next transaction (its id is the number begun before); returns its id. */
        public int begin(int session) {
            if (open) throw new IllegalStateException("transaction still open");
            open = true;
            txnSession.add(session);
            return txnSession.size() - 1;
        }

        /** The open transaction read key {@code key}'s version written by transaction {@code src} (-1: initial). */
        public void read(int key, int src) {
            for (int i = readStart.get(readStart.size() - 1); i < reads; i++) {
                if (readKey[i] == key && readSrc[i] == src) return;
            }
            if (reads == readKey.length) {
                readKey = Arrays.copyOf(readKey, reads * 2);
                readSrc = Arrays.copyOf(readSrc, reads * 2);
            }
            readKey[reads] = key;
            readSrc[reads++] = src;
        }

        /** The open transaction wrote key {@code key}. */
        public void write(int key) {
            for (int i = writeStart.get(writeStart.size() - 1); i < writes; i++) if (writeKey[i] == key) return;
            if (writes == writeKey.length) writeKey = Arrays.copyOf(writeKey, writes * 2);
            writeKey[writes++] = key;
        }

        public void end() {
            open = false;
            readStart.add(reads);
            writeStart.add(writes);
        }

        public SearchHistory build() {
            if (open) throw new IllegalStateException("transaction still open");
            return new SearchHistory(this);
        }
    }
}
