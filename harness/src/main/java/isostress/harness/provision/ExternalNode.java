package isostress.harness.provision;

import isostress.harness.db.DbNode;
import java.io.IOException;
import java.net.URI;
import java.util.List;

/** A server isostress did not start: clients can use it, faults cannot touch it. */
record ExternalNode(String name, String url, String host, int clientPort) implements DbNode {

    /** The node behind {@code url} (jdbc:postgresql://h:p/db, jdbc:mariadb://h:p/db, mongodb://h:p/...). */
    static ExternalNode of(String name, String url, int defaultPort) {
        String host = "localhost";
        int port = defaultPort;
        try {
            URI u = URI.create(url.startsWith("jdbc:") ? url.substring(5) : url);
            if (u.getHost() != null) host = u.getHost();
            if (u.getPort() > 0) port = u.getPort();
        } catch (IllegalArgumentException e) {
            // a URL java.net.URI cannot parse (several hosts, say): clients still use it as given
        }
        return new ExternalNode(name, url, host, port);
    }

    public List<Integer> peerPorts() {
        return List.of();
    }

    public long pid() {
        return -1;
    }

    public boolean controllable() {
        return false;
    }

    public void kill() throws IOException {
        throw refused("kill");
    }

    public void restart() throws IOException {
        throw refused("restart");
    }

    public void pause() throws IOException {
        throw refused("pause");
    }

    public void resume() throws IOException {
        throw refused("resume");
    }

    private IOException refused(String what) {
        return new IOException("cannot " + what + " " + name + " at " + host + ":" + clientPort
                + ": isostress did not start it");
    }
}
