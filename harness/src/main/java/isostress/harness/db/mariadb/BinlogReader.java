package isostress.harness.db.mariadb;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.ServerException;
import isostress.harness.db.WitnessWrite;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One node's binary log, read as a replica reads it (a binlog dump from a position) on a thread of its own, its
 * committed transactions handed to {@code out} as witness lines in the log's order. A transaction is the events
 * from its GTID event to its XID event (a {@code COMMIT} query for a non-transactional one); its line's
 * {@code pos} is the file's index and the commit event's end offset ({@link BinlogRows#pos}), its {@code txid} the
 * GTID {@code domain-server-sequence}.
 *
 * <p>A lost connection (the server was killed) is followed by a new one from the end of the last transaction read,
 * every half second until the server is back: the transaction cut in the middle is read again whole, and nothing is
 * written twice (a line is written only past the last position written).
 *
 * <p>A Galera node that rejoins by a full state transfer (rsync) gets the donor's data directory, binary log
 * included: the position it was read to no longer exists (the server refuses it, error 1236). Its log is then read
 * from its end at that time (the writesets in between are in the other nodes' logs), and its lines' positions
 * start a new generation ({@link #GENERATION_SHIFT}) so they still increase. On a single server that refusal
 * ends the capture: no other log holds what was skipped.
 */
final class BinlogReader {
    private static final long RETRY_MS = 500;
    /** ER_MASTER_FATAL_ERROR_READING_BINLOG: the asked position is not in the server's log. */
    private static final int NO_SUCH_POSITION = 1236;
    /** A line's pos: the log's generation above this bit, {@link BinlogRows#pos} below. */
    static final int GENERATION_SHIFT = 48;
    /**
     * The client logs every connection at INFO through java.util.logging, twice a second while a killed server is
     * down; kept here, as the logging framework holds its loggers weakly.
     */
    private static final Logger CLIENT_LOG = Logger.getLogger(BinaryLogClient.class.getName());

    static {
        CLIENT_LOG.setLevel(Level.WARNING);
    }

    /** The node's end of the log now, {file, offset}: where reading goes on after a state transfer. */
    interface EndOfLog {
        String[] now() throws IOException;
    }

    private final String node, host, user, password;
    private final int port;
    private final long serverId;
    private final Consumer<String> out;
    private final EndOfLog endOfLog;
    private final Thread thread;
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private volatile boolean stopping;
    private volatile BinaryLogClient client;
    private volatile String problem;

    // Read and written by the reader's thread only (the client calls the listener on the thread that connected).
    private final Map<Long, BinlogRows.Table> tables = new HashMap<>();
    private final List<WitnessWrite> writes = new ArrayList<>();
    private String gtid;
    private String file;
    private long fileIndex;
    /** The end of the last transaction read: where a new connection starts. */
    private volatile String resumeFile;
    private volatile long resumeOffset;
    /** How far the log was read (file index and offset as one number): close waits until it reaches the end. */
    private volatile long readPos;
    private long lastWritten = Long.MIN_VALUE;
    private volatile long written;
    /** Times the node's log was replaced by a state transfer; lines of a later generation have a greater pos. */
    private long generation;
    /** How the current connection ended, when the client says (reset at each connection). */
    private volatile Exception failure;
    private volatile String lastFailure;

    /**
     * @param serverId  the id the reader announces itself with, as a replica: unique among the server's replicas
     * @param endOfLog  for a Galera node, where to go on when a state transfer replaced its log; null for a single
     *                  server
     */
    BinlogReader(String node, String host, int port, String user, String password, long serverId, String file,
                 long offset, Consumer<String> out, EndOfLog endOfLog) {
        this.node = node;
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.serverId = serverId;
        this.out = out;
        this.endOfLog = endOfLog;
        this.resumeFile = file;
        this.resumeOffset = offset;
        this.file = file;
        this.fileIndex = BinlogRows.fileIndex(file);
        this.readPos = BinlogRows.pos(fileIndex, offset);
        this.thread = new Thread(this::readUntilStopped, "isostress-binlog-" + node);
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading and waits for the first connection.
     *
     * @throws IOException the server refused the dump (the sentence says why)
     */
    void start() throws IOException, InterruptedException {
        thread.start();
        try {
            connected.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            stop();
            String why = String.valueOf(e.getCause().getMessage());
            if (why.contains("REPLICATION SLAVE")) throw new IOException(BinlogCapture.privilege(user, why), e.getCause());
            throw new IOException("check.witness: cannot read the binary log of " + node + " (" + host + ":" + port
                    + "): " + why, e.getCause());
        } catch (TimeoutException e) {
            stop();
            throw new IOException("check.witness: the binary log of " + node + " (" + host + ":" + port
                    + ") did not answer within 30 s");
        }
    }

    long written() {
        return written;
    }

    /** How far the log was read, as {@link BinlogRows#pos}. */
    long readPos() {
        return readPos;
    }

    /** What the server or the link last said when a connection ended, or null. */
    String lastFailure() {
        return lastFailure;
    }

    /** Why reading stopped before it was asked to, or null. */
    String problem() {
        return problem;
    }

    private void readUntilStopped() {
        while (!stopping && problem == null) {
            BinaryLogClient c = new BinaryLogClient(host, port, user, password);
            c.setServerId(serverId);
            c.setKeepAlive(false); // reconnecting is done here, from a transaction's end
            c.setBlocking(true);
            c.setBinlogFilename(resumeFile);
            c.setBinlogPosition(resumeOffset);
            c.setConnectTimeout(10_000);
            c.registerEventListener(this::onEvent);
            c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
                @Override
                public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                    failure = ex;
                    lastFailure = ex.getMessage();
                }

                @Override
                public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                    problem = "check.witness: " + node + "'s binary log at " + file + " could not be decoded: "
                            + ex.getMessage();
                }
            });
            client = c;
            if (stopping) return; // stop() may have disconnected the client before this one
            resetTransaction();
            failure = null;
            Exception ended = null;
            try {
                c.connect(); // returns when the connection ends
            } catch (IOException | RuntimeException e) {
                ended = e; // the server is down or restarting: try again
            }
            if (!connected.isDone()) {
                // The first connection ended before the log's first event: the login or the dump was refused
                // (a dump refused for want of REPLICATION SLAVE comes after a successful login).
                Exception why = ended != null ? ended : failure;
                connected.completeExceptionally(why != null ? why
                        : new IOException("the server closed the connection before sending its log"));
                return;
            }
            if (stopping) return;
            if (failure instanceof ServerException se && se.getErrorCode() == NO_SUCH_POSITION) positionGone(se);
            try {
                Thread.sleep(RETRY_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The server no longer has the position to go on from. */
    private void positionGone(ServerException e) {
        if (endOfLog == null) {
            problem = "check.witness: " + node + "'s binary log no longer holds " + resumeFile + ":" + resumeOffset
                    + ", where reading was to go on (" + e.getMessage() + ")";
            return;
        }
        try {
            String[] end = endOfLog.now();
            generation++;
            resumeFile = end[0];
            resumeOffset = Long.parseLong(end[1]);
            file = resumeFile;
            fileIndex = BinlogRows.fileIndex(file);
            readPos = BinlogRows.pos(fileIndex, resumeOffset);
        } catch (IOException | RuntimeException ex) {
            // the node is not back yet: try again with the next connection
        }
    }

    private void resetTransaction() {
        gtid = null;
        writes.clear();
    }

    private void onEvent(Event e) {
        connected.complete(null); // the dump started: the server sends its log's first events at once
        if (problem != null) return;
        try {
            handle(e);
        } catch (RuntimeException ex) {
            // The client logs and swallows a listener's exception; keep it for close to report.
            problem = "check.witness: " + node + "'s binary log at " + file + ":" + ((EventHeaderV4) e.getHeader())
                    .getPosition() + ": " + ex.getMessage();
            BinaryLogClient c = client;
            if (c != null) {
                try {
                    c.disconnect();
                } catch (IOException io) {
                    // closing anyway
                }
            }
        }
    }

    private void handle(Event e) {
        EventHeaderV4 h = e.getHeader();
        switch (h.getEventType()) {
            case ROTATE -> {
                RotateEventData r = e.getData();
                file = r.getBinlogFilename();
                fileIndex = BinlogRows.fileIndex(file);
                if (r.getBinlogPosition() > 0) {
                    readPos = Math.max(readPos, BinlogRows.pos(fileIndex, r.getBinlogPosition()));
                }
                return;
            }
            case MARIADB_GTID -> {
                MariadbGtidEventData g = e.getData();
                resetTransaction();
                // The event's data leaves the server id unset: it is the header's (the server that wrote the event).
                gtid = g.getDomainId() + "-" + h.getServerId() + "-" + g.getSequence();
            }
            case TABLE_MAP -> {
                TableMapEventData t = e.getData();
                tables.put(t.getTableId(), BinlogRows.table(t.getTable()));
            }
            case WRITE_ROWS, EXT_WRITE_ROWS -> {
                WriteRowsEventData w = e.getData();
                BinlogRows.Table t = tables.getOrDefault(w.getTableId(), BinlogRows.Table.OTHER);
                if (t != BinlogRows.Table.OTHER) {
                    for (Serializable[] row : w.getRows()) add(BinlogRows.write(t, null, row));
                }
            }
            case UPDATE_ROWS, EXT_UPDATE_ROWS -> {
                UpdateRowsEventData u = e.getData();
                BinlogRows.Table t = tables.getOrDefault(u.getTableId(), BinlogRows.Table.OTHER);
                if (t != BinlogRows.Table.OTHER) {
                    for (Map.Entry<Serializable[], Serializable[]> row : u.getRows()) {
                        add(BinlogRows.write(t, row.getKey(), row.getValue()));
                    }
                }
            }
            case DELETE_ROWS, EXT_DELETE_ROWS -> {
                DeleteRowsEventData d = e.getData();
                BinlogRows.Table t = tables.getOrDefault(d.getTableId(), BinlogRows.Table.OTHER);
                if (t != BinlogRows.Table.OTHER) {
                    for (Serializable[] row : d.getRows()) add(BinlogRows.delete(row));
                }
            }
            case XID -> commit(h);
            case QUERY -> {
                QueryEventData q = e.getData();
                if (q.getSql().equalsIgnoreCase("COMMIT")) commit(h);
            }
            default -> {
            }
        }
        if (h.getNextPosition() > 0) readPos = Math.max(readPos, BinlogRows.pos(fileIndex, h.getNextPosition()));
    }

    private void add(WitnessWrite w) {
        if (w != null) writes.add(w);
    }

    /** The transaction's end: its line (when it wrote the workload's keys), and a new connection starts after it. */
    private void commit(EventHeaderV4 h) {
        long pos = generation << GENERATION_SHIFT | BinlogRows.pos(fileIndex, h.getNextPosition());
        // A transaction without writes to the workload's tables tells the join nothing.
        if (pos > lastWritten && !writes.isEmpty()) {
            out.accept(WitnessWrite.line(pos, node, gtid == null ? "?" : gtid, writes));
            written++;
            lastWritten = pos;
        }
        resumeFile = file;
        resumeOffset = h.getNextPosition();
        resetTransaction();
    }

    /** Stops reading and waits for the thread. */
    void stop() throws InterruptedException {
        stopping = true;
        BinaryLogClient c = client;
        if (c != null) {
            try {
                c.disconnect();
            } catch (IOException e) {
                // closing anyway
            }
        }
        thread.interrupt();
        thread.join(10_000);
    }
}
