package isostress.harness.provision;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Network;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientConfigUtils;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.utility.ResourceReaper;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Docker engine, reached through Testcontainers and set up for isostress before Testcontainers first talks to it.
 *
 * <p>Testcontainers would start its Ryuk container (image {@code testcontainers/ryuk}, pulled from Docker Hub) to
 * remove containers after the JVM dies. Where no image can be pulled, that fails every container start. isostress
 * removes its containers itself ({@link RunningDatabase#close()}, which the runner also calls from a shutdown hook
 * on Ctrl-C), and its {@link Watchdog} removes them when the harness dies any other way, SIGKILL included. So unless
 * {@code TESTCONTAINERS_RYUK_DISABLED=false} asks for Ryuk, Testcontainers gets a reaper that reaps nothing: not the
 * one {@code TESTCONTAINERS_RYUK_DISABLED=true} selects (which Testcontainers 2.0 reads only from the process
 * environment, and a Java program cannot set its own), since that one's shutdown hook removes the containers at
 * the same time as the runner's, which then finds them gone while it copies their logs.
 *
 * <p>Testcontainers also pulls {@code alpine} by itself, twice: to check that files can be mounted (isostress mounts
 * none, so never), and, when the JVM runs inside a container ({@code /.dockerenv}), to find the address of the Docker
 * host from a container's default route whenever the engine's bridge network lists no gateway, which is how Debian's
 * dockerd leaves it unless started with {@code --bip}. That address is the bridge's first one, so it is worked out
 * here from the bridge's subnet and handed to Testcontainers ({@code TESTCONTAINERS_HOST_OVERRIDE} still wins).
 */
public final class DockerEngine {
    private static boolean prepared;

    private DockerEngine() {
    }

    /** True when a Docker engine answers. */
    public static boolean available() {
        prepare();
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** Testcontainers' client; fails with a message naming what to do when no engine answers. */
    public static DockerClient client() throws IOException {
        if (!available()) {
            throw new IOException("no Docker engine answers (provision: docker): install docker.io and start dockerd, "
                    + "or point DOCKER_HOST at one");
        }
        return DockerClientFactory.instance().client();
    }

    /** True when {@code image} is in the engine's local image store (so starting it pulls nothing). */
    public static boolean hasImage(String image) {
        if (!available()) return false;
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** Writes everything the container printed (across restarts) to {@code file}, replacing it. */
    public static void writeLogs(String containerId, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
                @Override
                public void onNext(Frame frame) {
                    try {
                        out.write(frame.getPayload());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            client().logContainerCmd(containerId).withStdOut(true).withStdErr(true).exec(callback)
                    .awaitCompletion(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while copying the logs of container " + containerId, e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static synchronized void prepare() {
        if (prepared) return;
        prepared = true;
        disableRyuk();
        hostFromBridge();
    }

    /** Installs a reaper without Ryuk and without a shutdown hook unless the environment asks for Ryuk. */
    private static void disableRyuk() {
        if ("false".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) return;
        try {
            Field instance = ResourceReaper.class.getDeclaredField("instance");
            instance.setAccessible(true);
            if (instance.get(null) != null) return;
            // The base class starts nothing (its init() is empty) and would add its shutdown hook on the first
            // container it is told of, unless it believes it has one already.
            Constructor<ResourceReaper> plain = ResourceReaper.class.getDeclaredConstructor();
            plain.setAccessible(true);
            ResourceReaper reaper = plain.newInstance();
            Field hookIsSet = ResourceReaper.class.getDeclaredField("hookIsSet");
            hookIsSet.setAccessible(true);
            ((AtomicBoolean) hookIsSet.get(reaper)).set(true);
            instance.set(null, reaper);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("isostress: could not turn off Testcontainers' Ryuk container (" + e
                    + "); set TESTCONTAINERS_RYUK_DISABLED=true if its image cannot be pulled");
        }
    }

    /** Gives Testcontainers the Docker host's address when it would run alpine to find it; see the class comment. */
    private static void hostFromBridge() {
        if (!DockerClientConfigUtils.IN_A_CONTAINER || System.getenv("TESTCONTAINERS_HOST_OVERRIDE") != null) return;
        DockerClientFactory factory = DockerClientFactory.instance();
        try {
            // Chooses how to reach the engine without creating Testcontainers' client, which asks for the address.
            if (!"unix".equals(factory.getTransportConfig().getDockerHost().getScheme())) return;
        } catch (RuntimeException e) {
            return; // no engine: available() says so
        }
        try {
            Field strategyField = DockerClientFactory.class.getDeclaredField("strategy");
            strategyField.setAccessible(true);
            DockerClientProviderStrategy strategy = (DockerClientProviderStrategy) strategyField.get(factory);
            List<Network.Ipam.Config> configs = strategy.getDockerClient().inspectNetworkCmd().withNetworkId("bridge")
                    .exec().getIpam().getConfig();
            if (configs == null || configs.isEmpty() || configs.stream().anyMatch(c -> c.getGateway() != null)) return;
            String host = firstAddress(configs.get(0).getSubnet());
            if (host == null) return;
            Field address = DockerClientProviderStrategy.class.getDeclaredField("dockerHostIpAddress");
            address.setAccessible(true);
            if (address.get(strategy) == null) address.set(strategy, host);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("isostress: could not work out the Docker host's address (" + e + "); set "
                    + "TESTCONTAINERS_HOST_OVERRIDE if Testcontainers cannot pull alpine to find it");
        }
    }

    /** The first host address of an IPv4 subnet ("172.17.0.0/16" gives "172.17.0.1"), or null. */
    static String firstAddress(String subnet) {
        if (subnet == null || !subnet.matches("\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+")) return null;
        String[] p = subnet.substring(0, subnet.indexOf('/')).split("\\.");
        long ip = 0;
        for (String part : p) ip = ip << 8 | Integer.parseInt(part);
        ip++;
        return (ip >> 24 & 255) + "." + (ip >> 16 & 255) + "." + (ip >> 8 & 255) + "." + (ip & 255);
    }
}
