package isostress.harness.db.postgresql.patroni;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one etcd the members keep their leader key in (Patroni's DCS), on loopback (and on one address per member, so
 * that a partition can cut one member's link: {@link PatroniMember.Address}), its data under the cluster's
 * directory and its log in the run's logs ({@code etcd.log}). One member of etcd is enough here: the faults to come
 * act on PostgreSQL and Patroni, and etcd's own quorum is not what the campaigns test. etcd 3.4 serves the v3 API
 * Patroni's {@code etcd3:} section speaks; the v2 API stays off.
 */
final class Etcd {
    static final String HOST = "127.0.0.1";
    private final int clientPort, peerPort;
    private final List<String> command;
    private final Path log;
    private Process process;

    /** @param memberHosts the addresses the members reach it on, one each, besides {@link #HOST} */
    Etcd(PatroniTools tools, Path data, Path log, int clientPort, int peerPort, List<String> memberHosts) {
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.log = log;
        String peer = "http://" + HOST + ":" + peerPort, client = "http://" + HOST + ":" + clientPort;
        StringBuilder listen = new StringBuilder(client);
        for (String h : memberHosts) listen.append(",http://").append(h).append(':').append(clientPort);
        this.command = PatroniTools.asPostgres(List.of(tools.etcd().toString(), "--name", "isostress",
                "--data-dir", data.toString(), "--listen-client-urls", listen.toString(),
                "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "isostress=" + peer, "--enable-v2=false"));
    }

    int clientPort() {
        return clientPort;
    }

    int peerPort() {
        return peerPort;
    }

    /** Starts etcd and waits (at most {@code seconds}) until it says it is healthy. */
    void start(int seconds) throws IOException, InterruptedException {
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + clientPort + "/health"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("etcd exited with status " + process.exitValue() + " (see " + log + ")");
            }
            try {
                HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"true\"")) return;
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new IOException("etcd was not healthy within " + seconds + " s (last answer: " + last + "; see " + log
                + ")");
    }

    long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    /** SIGTERM, SIGKILL after 10 s. */
    void stop() throws InterruptedException {
        Process p = process;
        if (p == null || !p.isAlive()) return;
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
