package isostress.harness.run;

import isostress.harness.Services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What Docker tests of whole runs ask the engine, through the docker CLI (independently of the Testcontainers client
 * the harness uses): which images are there, and which containers and networks a harness left.
 */
final class DockerCli {
    /** The local Debian base {@code .ci/docker-images} makes, on which the PostgreSQL and MariaDB images are built. */
    static final String DEBIAN_BASE = "isostress/debian:bookworm";

    private DockerCli() {
    }

    /** True when the docker CLI reaches an engine that has {@code image}. */
    static boolean hasImage(String image) {
        try {
            Process p = new ProcessBuilder("docker", "image", "inspect", image).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Skips (or fails, with ISOSTRESS_REQUIRE_ALL=1) unless the docker CLI reaches an engine that has the image. */
    static void requireImage(String image) {
        Services.require(hasImage(image), "Docker with the isostress images (" + image + ")",
                "apt-get install docker.io, start dockerd and run .ci/docker-images");
    }

    /** The containers and networks labelled with a harness's pid ({@code isostress.owner}), as the CLI lists them. */
    static List<String> ownedBy(long pid) {
        List<String> found = new ArrayList<>();
        String label = "label=isostress.owner=" + pid;
        for (String id : run("docker", "ps", "-aq", "--filter", label)) found.add("container " + id);
        for (String id : run("docker", "network", "ls", "-q", "--filter", label)) found.add("network " + id);
        return found;
    }

    /** Runs a docker command that must succeed; its output's non-blank lines. */
    static List<String> run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
            return out.lines().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
