package isostress.harness.provision;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotModifiedException;
import isostress.harness.db.DbNode;
import org.testcontainers.containers.GenericContainer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One database server in a container that isostress started. Faults act on the container through the Docker engine:
 * kill is {@code docker kill -s KILL}, pause and resume are {@code docker pause}/{@code unpause} (the cgroup freezer
 * stops every process of the server at once), restart starts the same container again, on its own data, and waits
 * until the server is ready (for a Galera node: synced) by its {@link Probe}. The client port is published on a fixed
 * host port chosen at creation, so a restarted node keeps its address and the clients' URL stays valid.
 *
 * <p>{@link #peerPorts()} is empty: cluster traffic stays inside a Docker network, and cutting it (partitions) is not
 * implemented for docker nodes.
 */
public final class DockerNode implements DbNode {
    /** Whether a node is ready, asked again and again until it says yes or time runs out. */
    @FunctionalInterface
    public interface Probe {
        /** True when ready; false or an exception (kept for the message) when not yet. */
        boolean ready() throws Exception;
    }

    private final String name;
    private final GenericContainer<?> container;
    private final String url, host;
    private final int port;
    private final Probe probe;
    private final Duration restartTimeout;
    private final ContainerLog log;

    /**
     * @param container      started, its client port published on {@code host:port}
     * @param probe          says when the server is ready after a restart
     * @param restartTimeout how long a restart may take
     * @param log            the container's output so far, replaced by {@link #writeLogs()}
     */
    public DockerNode(String name, GenericContainer<?> container, String url, String host, int port, Probe probe,
               Duration restartTimeout, ContainerLog log) {
        this.name = name;
        this.container = container;
        this.url = url;
        this.host = host;
        this.port = port;
        this.probe = probe;
        this.restartTimeout = restartTimeout;
        this.log = log;
    }

    public String name() {
        return name;
    }

    public String url() {
        return url;
    }

    public String host() {
        return host;
    }

    public int clientPort() {
        return port;
    }

    public List<Integer> peerPorts() {
        return List.of();
    }

    /** The server's process id as the Docker engine's host sees it, or -1 when the container is not running. */
    public long pid() {
        InspectContainerResponse.ContainerState s = state();
        return s != null && Boolean.TRUE.equals(s.getRunning()) && s.getPidLong() != null ? s.getPidLong() : -1;
    }

    /** The container's state, or null when the engine cannot say. */
    private InspectContainerResponse.ContainerState state() {
        try {
            return DockerEngine.client().inspectContainerCmd(id()).exec().getState();
        } catch (IOException | DockerException | IllegalStateException e) {
            return null;
        }
    }

    public boolean controllable() {
        return true;
    }

    public void kill() throws IOException {
        docker("kill", () -> DockerEngine.client().killContainerCmd(id()).withSignal("KILL").exec());
    }

    public void restart() throws IOException, InterruptedException {
        try {
            docker("start", () -> DockerEngine.client().startContainerCmd(id()).exec());
        } catch (IOException e) {
            // Not killed after all (the engine answers 304 Not Modified): it only has to be ready.
            if (!(e.getCause() instanceof NotModifiedException)) throw e;
        }
        awaitReady(restartTimeout);
    }

    public void pause() throws IOException {
        docker("pause", () -> DockerEngine.client().pauseContainerCmd(id()).exec());
    }

    public void resume() throws IOException {
        docker("unpause", () -> DockerEngine.client().unpauseContainerCmd(id()).exec());
    }

    /**
     * Asks the node's probe every 250 ms until it says ready; fails after {@code timeout} with the last reason, or at
     * once when the container stops.
     */
    public void awaitReady(Duration timeout) throws IOException, InterruptedException {
        awaitReady(timeout, probe);
    }

    /** Like {@link #awaitReady(Duration)} with another question (a cluster's size, say). */
    public void awaitReady(Duration timeout, Probe probe) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "not ready";
        while (true) {
            try {
                if (probe.ready()) return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e.getMessage();
            }
            InspectContainerResponse.ContainerState s = state();
            if (s != null && !Boolean.TRUE.equals(s.getRunning())) {
                throw new IOException(name + " (container " + shortId() + ") exited with status " + s.getExitCodeLong()
                        + " instead of becoming ready (its output: " + log.file() + ")");
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(name + " (container " + shortId() + ") was not ready within "
                        + timeout.toSeconds() + " s: " + last);
            }
            Thread.sleep(250);
        }
    }

    /** Where the container's output goes. */
    public Path log() {
        return log.file();
    }

    public GenericContainer<?> container() {
        return container;
    }

    /** Copies what the container printed, across restarts, to its log file; a failure only warns. */
    public void writeLogs() {
        String id = container.getContainerId();
        if (id == null) return;
        log.close();
        try {
            DockerEngine.writeLogs(id, log.file());
        } catch (IOException | DockerException e) {
            System.err.println("isostress: copying the logs of " + name + ": " + e.getMessage());
        }
    }

    /** Stops and removes the container with its volumes (data). */
    public void remove() {
        try {
            container.stop();
        } catch (RuntimeException e) {
            System.err.println("isostress: removing container " + shortId() + " of " + name + ": " + e.getMessage());
        }
    }

    private String id() throws IOException {
        String id = container.getContainerId();
        if (id == null) throw new IOException(name + " has no container (removed)");
        return id;
    }

    private String shortId() {
        String id = container.getContainerId();
        return id == null ? "removed" : id.substring(0, Math.min(12, id.length()));
    }

    private interface DockerCall {
        void run() throws IOException;
    }

    private void docker(String what, DockerCall call) throws IOException {
        try {
            call.run();
        } catch (DockerException e) {
            throw new IOException("docker " + what + " " + name + " (container " + shortId() + "): "
                    + e.getMessage(), e);
        }
    }
}
