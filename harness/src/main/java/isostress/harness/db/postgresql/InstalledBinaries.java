package isostress.harness.db.postgresql;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.provision.Host;
import isostress.harness.provision.Leftovers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code provision: local}: the PostgreSQL server programs installed on this machine ({@code database.bin-dir}, else
 * the directory {@code pg_config --bindir} names, as Debian's {@code postgresql-15} puts them in
 * {@code /usr/lib/postgresql/15/bin}). A throwaway cluster: initdb into the run's temporary data directory, then
 * {@code pg_ctl -w start} with the settings on the command line, as zonky does for the embedded one, so both behave
 * alike. The server listens on TCP only ({@code unix_socket_directories} empty): the packaged default socket
 * directory ({@code /var/run/postgresql}) belongs to the system's own cluster and is not writable by the user the
 * server runs as under {@code unshare -U}. The system's cluster (Debian starts one on port 5432) is never touched:
 * the port is a free one and the data directory the run's.
 */
final class InstalledBinaries implements PostgresBinaries {
    /** What Debian's postgresql-15 installs; named in the sentence for a machine without PostgreSQL. */
    static final String DEBIAN_BIN_DIR = "/usr/lib/postgresql/15/bin";
    /** Where pg_config may be: Debian's (postgresql-common, libpq-dev), a source build's. */
    private static final String[] PG_CONFIG = {"/usr/bin/pg_config", "/usr/local/bin/pg_config",
            "/usr/local/pgsql/bin/pg_config"};
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\d+(\\.\\d+)*)");
    private Path binDir;

    @Override
    public String prepare(DatabaseSpec db) throws IOException, InterruptedException {
        if (db.binDir() != null) {
            binDir = Path.of(db.binDir());
            String problem = problem(binDir);
            if (problem != null) throw new IOException("database.bin-dir: " + problem);
        } else {
            binDir = fromPgConfig(Host.find(PG_CONFIG));
            System.err.println("isostress: provision: local runs the PostgreSQL binaries pg_config names: " + binDir);
        }
        return "local PostgreSQL " + version(binDir) + " from " + binDir;
    }

    /** Why {@code dir} holds no PostgreSQL server programs, or null. */
    static String problem(Path dir) {
        List<String> missing = new ArrayList<>();
        for (String p : List.of("initdb", "pg_ctl", "postgres")) {
            if (!Files.isExecutable(dir.resolve(p))) missing.add(p);
        }
        if (missing.isEmpty()) return null;
        return (Files.isDirectory(dir) ? "no " + String.join(", ", missing) + " in " + dir : dir + " is not a directory")
                + ": name the directory of PostgreSQL's server programs (Debian's postgresql-15: " + DEBIAN_BIN_DIR + ")";
    }

    /**
     * {@code pgConfig --bindir}, when that directory holds the server programs.
     *
     * @param pgConfig the pg_config program, or null when there is none
     */
    static Path fromPgConfig(Path pgConfig) throws IOException, InterruptedException {
        String install = "provision: local for postgresql starts the PostgreSQL server installed here, and there is "
                + "none: install it (apt-get install postgresql-15) or name its programs' directory with "
                + "database.bin-dir";
        if (pgConfig == null) throw new IOException(install + " (no pg_config found)");
        String out = output(List.of(pgConfig.toString(), "--bindir")).trim();
        Path dir = Path.of(out);
        if (out.isEmpty() || problem(dir) != null) {
            throw new IOException(install + " (pg_config --bindir says '" + out + "', which holds no server: "
                    + "Debian's pg_config comes with the client, the server is postgresql-15)");
        }
        return dir;
    }

    /** "15.14" from {@code postgres --version} ("postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)"). */
    static String version(Path binDir) throws IOException, InterruptedException {
        String out = output(List.of(binDir.resolve("postgres").toString(), "--version"));
        Matcher m = VERSION.matcher(out);
        if (!m.find()) throw new IOException(binDir.resolve("postgres") + " --version said '" + out.trim() + "'");
        return m.group(1);
    }

    @Override
    public Server start(Path data, int port, Map<String, String> settings, Path log, Duration startup)
            throws IOException, InterruptedException {
        run(List.of(program("initdb"), "-A", "trust", "-U", "postgres", "-D", data.toString(), "-E", "UTF-8"), log,
                startup);
        // pg_ctl hands -o to the postmaster through /bin/sh: each setting is quoted for it.
        StringBuilder opts = new StringBuilder("-p " + port + " -F -c unix_socket_directories=''");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            opts.append(" -c '").append(e.getKey()).append('=').append(e.getValue().replace("'", "'\\''")).append('\'');
        }
        run(List.of(program("pg_ctl"), "-D", data.toString(), "-o", opts.toString(), "-w",
                "-t", Long.toString(Math.max(1, startup.toSeconds())), "start"), log, startup.plusSeconds(10));
        String url = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
        return new Server() {
            @Override
            public String jdbcUrl() {
                return url;
            }

            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() throws IOException {
                try {
                    if (Files.exists(data.resolve("postmaster.pid"))) {
                        run(List.of(program("pg_ctl"), "-D", data.toString(), "-m", "fast", "-t", "10", "-w", "stop"),
                                log, Duration.ofSeconds(20));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted stopping " + data, e);
                } finally {
                    Leftovers.deleteTree(data);
                }
            }
        };
    }

    private String program(String name) {
        return binDir.resolve(name).toString();
    }

    /** Runs {@code cmd} (through {@code unshare -U} as root), its output appended to {@code log}; fails on exit != 0. */
    private static void run(List<String> cmd, Path log, Duration wait) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (Host.isRoot()) full.addAll(List.of("unshare", "-U"));
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException(Path.of(cmd.get(0)).getFileName() + " did not finish within " + wait.toSeconds()
                    + " s (see " + log + ")");
        }
        if (p.exitValue() != 0) {
            throw new IOException(Path.of(cmd.get(0)).getFileName() + " " + cmd.get(cmd.size() - 1) + " failed with "
                    + "status " + p.exitValue() + " (see " + log + ")");
        }
    }

    private static String output(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed: " + out.trim());
        return out;
    }
}
