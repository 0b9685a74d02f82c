package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.model.WitnessReport;
import isostress.harness.Services;
import isostress.harness.provision.DockerEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} with {@code provision: docker}: PostgreSQL 16 in a container (the image built from zonky's
 * binaries) with a standby container, both logs read through logical decoding from the host, joined clean; the
 * standby's lines repeat the primary's.
 */
class DockerPostgresWitnessTest {
    @TempDir
    Path store;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void dockerPrimaryAndStandbyLogsAreCapturedAndJoined() throws Exception {
        String base = "isostress/debian:bookworm"; // the base image .ci/docker-images makes; the 16.15 image is built on it
        Services.require(DockerEngine.available() && DockerEngine.hasImage(base),
                "Docker with the isostress images (" + base + ")", "install docker.io, start dockerd and run "
                        + ".ci/docker-images");
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: docker-witness\n"
                + "database: {type: postgresql, provision: docker, version: \"16.15\", isolation: repeatable-read, "
                + "replicas: 1, timeout: 2s}\n"
                + "workload: {type: list-append, read-from: any, sessions: 4, transactions: 1500, keys: 10, seed: 6}\n"
                + "check: {levels: [snapshot-isolation], witness: true}\n"));
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        System.out.println("docker: " + w.summary());
        assertEquals(0, w.findingCount(), w.summary());
        Map<String, List<String>> perNode = new TreeMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(o.dir().witness())) {
            JsonNode l = json.readTree(line);
            perNode.computeIfAbsent(l.get("node").asText(), k -> new ArrayList<>())
                    .add(l.get("pos").asText() + " " + l.get("writes"));
        }
        assertEquals(Set.of("n1", "n2"), perNode.keySet(), "the primary's and the standby's logs");
        assertTrue(perNode.get("n1").size() > 300, perNode.get("n1").size() + " primary transactions");
        assertEquals(perNode.get("n1"), perNode.get("n2"), "the standby replays the primary's commits in its order");
        assertTrue(Files.readString(o.dir().witness()).contains("[\"append\","), "appends in the log");
    }
}
