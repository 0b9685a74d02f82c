package isostress.harness.provision;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the provisioners ask of the machine the harness runs on: a free port, an installed program, who we are. */
public final class Host {
    private Host() {
    }

    /**
     * {@code n} distinct TCP ports free right now. Each is held open until all are chosen: ports asked for one at a
     * time may repeat (the kernel can hand a just-closed port out again), and two servers given the same port make
     * the second one's client reach the first one.
     */
    public static int[] freePorts(int n) throws IOException {
        ServerSocket[] held = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                held[i] = new ServerSocket(0);
                ports[i] = held[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                if (s != null) s.close();
            }
        }
    }

    /** A TCP port free right now (the server that takes it may still lose a race, which its start then reports). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** The first of {@code candidates} that is an executable file, or null. */
    public static Path find(String... candidates) {
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** True when the harness runs as root (PostgreSQL then runs through {@code unshare -U}, MariaDB as mysql). */
    public static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
