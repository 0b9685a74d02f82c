package isostress.harness.db.postgresql.patroni;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Patroni's REST API as the harness reads it: {@code GET /cluster} on any member gives every member's role
 * (leader, replica, sync_standby), state and timeline as the DCS knows them, so the harness knows which member is
 * the primary at any time without asking PostgreSQL.
 */
final class PatroniRest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** For a watcher that polls often: a paused or cut-off member must not hold up its next look for seconds. */
    private static final HttpClient QUICK = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    /** One member as {@code /cluster} lists it; timeline -1 when it gives none (a member not running). */
    record Member(String name, String role, String state, String host, int port, long timeline) {
        boolean leader() {
            return role.equals("leader");
        }

        /** Running, and following a leader when it is not one (Patroni 3.0 says running; later ones streaming). */
        boolean running() {
            return state.equals("running") || state.equals("streaming");
        }
    }

    private PatroniRest() {
    }

    /** The cluster as the member whose REST API is at {@code host:port} sees it. */
    static List<Member> cluster(String host, int port) throws IOException, InterruptedException {
        return cluster(HTTP, host, port, Duration.ofSeconds(3));
    }

    /** As {@link #cluster(String, int)}, giving up on a member after about 500 ms (connecting, then answering). */
    static List<Member> clusterQuickly(String host, int port) throws IOException, InterruptedException {
        return cluster(QUICK, host, port, Duration.ofMillis(500));
    }

    private static List<Member> cluster(HttpClient http, String host, int port, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/cluster"))
                .timeout(timeout).GET().build();
        HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
            throw new IOException("GET /cluster on " + host + ":" + port + " answered " + resp.statusCode());
        }
        return parse(resp.body());
    }

    /** The members of a {@code /cluster} answer. */
    static List<Member> parse(String body) throws IOException {
        JsonNode members = JSON.readTree(body).path("members");
        List<Member> out = new ArrayList<>();
        for (JsonNode m : members) {
            out.add(new Member(m.path("name").asText(), m.path("role").asText(), m.path("state").asText(),
                    m.path("host").asText(), m.path("port").asInt(), m.path("timeline").asLong(-1)));
        }
        return out;
    }

    /** The leader among {@code members}, if one is running. */
    static Optional<Member> leader(List<Member> members) {
        return members.stream().filter(m -> m.leader() && m.running()).findFirst();
    }

    /**
     * A planned switchover away from {@code leader}, asked of the member whose REST API is at {@code host:port}
     * (the leader's): the answer comes when it is done (200) or has failed. The same call patronictl makes, without
     * starting a second Python program that reads the member's configuration and asks for confirmation.
     */
    static String switchover(String host, int port, String leader) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/switchover"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(java.util.Map.of("leader", leader))))
                .build();
        HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
            throw new IOException("POST /switchover on " + host + ":" + port + " answered " + resp.statusCode() + ": "
                    + resp.body().trim());
        }
        return resp.body().trim();
    }
}
