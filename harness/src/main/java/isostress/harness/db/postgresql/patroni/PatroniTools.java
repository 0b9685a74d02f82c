package isostress.harness.db.postgresql.patroni;

import isostress.harness.provision.Host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The programs a Patroni cluster runs, all installed on this machine: Debian's {@code patroni} (3.0.2, a Python
 * program run by /usr/bin/python3, whose packages it was installed for: a {@code python3} first on PATH may lack
 * them), {@code etcd-server} and PostgreSQL's server programs. Patroni calls more of PostgreSQL's programs than a
 * single server needs: pg_basebackup to clone a replica, pg_rewind to bring a failed primary back as a replica,
 * pg_controldata to read a stopped data directory's state, pg_isready while it starts; all must be of the same
 * major version as the server, so a {@code bin-dir} must hold them all (Debian's {@code postgresql-NN} does; zonky's
 * embedded bundles do not). Another Patroni ({@code database.patroni-program}: say {@code patroni.py} at the top of
 * a release's source tree) runs the same way, with Debian's Python packages: how a bug found on Debian's version is
 * shown fixed (or not) in a later one.
 *
 * @param patroni  the patroni script
 * @param python   the interpreter to run it with
 * @param etcd     the etcd server
 * @param binDir   PostgreSQL's server programs
 * @param pgVersion PostgreSQL's version there (e.g. 15.20)
 * @param patroniVersion the Patroni's version, as it reports it (e.g. 3.0.2)
 */
record PatroniTools(Path patroni, Path python, Path etcd, Path binDir, String pgVersion, String patroniVersion) {
    /** Debian's Patroni, the default. */
    static final Path DEBIAN_PATRONI = Path.of("/usr/bin/patroni");
    /** Debian's postgresql-15, the default. */
    static final Path DEBIAN_BIN_DIR = Path.of("/usr/lib/postgresql/15/bin");
    /** What to install when something is missing. */
    static final String INSTALL = "apt-get install -y patroni etcd-server postgresql-15";
    static final List<String> PG_PROGRAMS = List.of("postgres", "initdb", "pg_ctl", "pg_basebackup", "pg_rewind",
            "pg_controldata", "pg_isready");
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\d+(\\.\\d+)*)");

    /** True when a Patroni cluster can be started here with the default binaries. */
    static boolean available() {
        return missing(null).isEmpty();
    }

    /** What this machine lacks for a cluster on {@code binDir} (null: the default), by name; empty when nothing. */
    static List<String> missing(Path binDir) {
        List<String> out = new ArrayList<>();
        if (Host.find(DEBIAN_PATRONI.toString()) == null) out.add("patroni (" + DEBIAN_PATRONI + ")");
        if (Host.find("/usr/bin/python3") == null) out.add("/usr/bin/python3");
        if (Host.find("/usr/bin/etcd") == null) out.add("etcd (/usr/bin/etcd)");
        String pg = binDirProblem(binDir == null ? DEBIAN_BIN_DIR : binDir);
        if (pg != null) out.add(pg);
        return out;
    }

    /** Why {@code dir} lacks PostgreSQL programs a Patroni member calls, or null. */
    static String binDirProblem(Path dir) {
        if (!Files.isDirectory(dir)) return dir + " is not a directory";
        List<String> missing = new ArrayList<>();
        for (String p : PG_PROGRAMS) if (!Files.isExecutable(dir.resolve(p))) missing.add(p);
        if (missing.isEmpty()) return null;
        return "no " + String.join(", ", missing) + " in " + dir + " (Patroni runs " + String.join(", ", PG_PROGRAMS)
                + " of one major version: Debian's postgresql-NN has them in /usr/lib/postgresql/NN/bin)";
    }

    /**
     * Why {@code program} cannot be the Patroni the members run, or null. It must be a readable file (it is run as
     * {@code /usr/bin/python3 program}, as user postgres when isostress is root, so that user must be able to read
     * it); whether it is a Patroni shows when it is asked its version.
     */
    static String programProblem(Path program) {
        if (!Files.isRegularFile(program)) {
            return program + " is not a file (the Patroni program to run, e.g. patroni.py at the top of Patroni's "
                    + "source tree)";
        }
        if (!Files.isReadable(program)) return program + " cannot be read";
        return null;
    }

    /**
     * The tools, or an exception naming what to install. {@code program}: the Patroni to run instead of Debian's,
     * or null.
     */
    static PatroniTools find(String binDir, String program) throws IOException, InterruptedException {
        Path dir = binDir == null ? DEBIAN_BIN_DIR : Path.of(binDir);
        List<String> missing = missing(dir);
        if (program != null) {
            missing.remove("patroni (" + DEBIAN_PATRONI + ")"); // another Patroni, with Debian's Python packages
            String problem = programProblem(Path.of(program));
            if (problem != null) missing.add(problem);
        }
        if (!missing.isEmpty()) {
            throw new IOException("a Patroni cluster needs " + String.join("; ", missing) + ": " + INSTALL);
        }
        Path patroni = program == null ? DEBIAN_PATRONI : Path.of(program).toAbsolutePath();
        Path python = Path.of("/usr/bin/python3");
        return new PatroniTools(patroni, python, Path.of("/usr/bin/etcd"), dir,
                version(VERSION, dir.resolve("postgres").toString(), "--version"),
                version(PATRONI_VERSION, python.toString(), patroni.toString(), "--version"));
    }

    /** Patroni prints the name it was started by and its version: "patroni 3.0.2", "patroni.py 3.0.3". */
    private static final Pattern PATRONI_VERSION = Pattern.compile("(?m)^\\S+ (\\d+(\\.\\d+)+\\S*)$");

    /** The version {@code command} prints, as {@code pattern}'s first group finds it. */
    private static String version(Pattern pattern, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
        Matcher m = pattern.matcher(out);
        if (m.find()) return m.group(1);
        if (pattern == PATRONI_VERSION) {
            // Not a Patroni, or one that does not start with these Python packages: no cluster would come up.
            throw new IOException(command[1] + " --version did not print Patroni's version: "
                    + out.strip().lines().reduce((a, b) -> b).orElse("(no output)"));
        }
        return "(unknown version)";
    }

    /**
     * {@code cmd} run as user postgres when isostress is root (PostgreSQL and Patroni refuse root), in a session of
     * its own, so that the Ctrl-C a terminal sends to the harness's process group reaches the harness alone, which
     * then stops the cluster in order. Both setsid (not the leader of a group) and setpriv exec, so the process
     * Java starts is the program itself, with its pid.
     */
    static List<String> asPostgres(List<String> cmd) {
        List<String> out = new ArrayList<>(List.of("/usr/bin/setsid"));
        if (Host.isRoot()) {
            out.addAll(List.of("/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"));
        }
        out.addAll(cmd);
        return out;
    }
}
