package isostress.harness.db.mariadb;

import isostress.harness.provision.Host;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine's MariaDB programs: server, data directory installer, command-line client. */
record MariaDbTools(Path server, Path install, Path client) {

    /** The installed tools, or throws naming the package to install. */
    static MariaDbTools find() throws IOException {
        Path server = LocalMariaDbProvisioner.mariadbd();
        Path install = Host.find("/usr/bin/mariadb-install-db", "/usr/bin/mysql_install_db",
                "/usr/local/bin/mariadb-install-db");
        Path client = Host.find("/usr/bin/mariadb", "/usr/bin/mysql");
        if (server == null || install == null || client == null) {
            throw new IOException("no local MariaDB server: install it (apt-get install -y mariadb-server)");
        }
        return new MariaDbTools(server, install, client);
    }

    /** Runs {@code sql} as root over the socket; the first column of the first row, or "" on any error. */
    String query(Path socket, String sql, int seconds) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(client.toString(), "--no-defaults", "--socket=" + socket, "-uroot", "-N",
                    "-B", "-e", sql).redirectErrorStream(true).start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.exitValue() == 0 ? out.split("\n")[0].split("\t")[0] : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Runs {@code sql} as root over the socket, failing with the client's output. */
    void execute(Path socket, String sql, Path log) throws IOException, InterruptedException {
        LocalMariaDbProvisioner.run(List.of(client.toString(), "--no-defaults", "--socket=" + socket, "-uroot", "-e", sql),
                log, 30, "mariadb client");
    }
}
