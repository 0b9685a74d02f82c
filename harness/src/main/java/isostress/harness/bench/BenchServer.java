package isostress.harness.bench;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.run.CampaignRunner;
import isostress.harness.run.RunOutcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One embedded PostgreSQL kept up across several benchmark runs, each run an ordinary isostress campaign pointed at
 * it as an external database (so the server start is not timed, and every run meets the same server).
 */
final class BenchServer implements AutoCloseable {
    private final RunningDatabase db;
    private final Path store;

    private BenchServer(RunningDatabase db, Path store) {
        this.db = db;
        this.store = store;
    }

    static BenchServer start(String version, int clients) throws IOException, InterruptedException {
        Path store = Files.createTempDirectory("isostress-bench-store");
        DatabaseSpec spec = new DatabaseSpec(isostress.harness.db.Databases.byName("postgresql"), Provision.EMBEDDED,
                version, null, null, null, Isolation.SERIALIZABLE, Map.of());
        RunningDatabase db = Provisioner.of(spec).start(spec, store.resolve("server-logs"), clients);
        return new BenchServer(db, store);
    }

    String description() {
        return db.description();
    }

    /** Host and port, for pgbench. */
    String[] hostPort() {
        String u = db.jdbcUrl().substring("jdbc:postgresql://".length());
        String hp = u.substring(0, u.indexOf('/'));
        return hp.split(":");
    }

    /** Runs a campaign (YAML with workload and check sections) against this server; returns its outcome. */
    RunOutcome run(String name, String isolation, String workloadYaml, String levels) throws IOException, InterruptedException {
        String yaml = "name: " + name + "\n"
                + "database: {type: postgresql, provision: external, url: \"" + db.jdbcUrl() + "\", isolation: "
                + isolation + "}\n"
                + "workload: " + workloadYaml + "\n"
                + "check: {levels: " + levels + ", streaming: false}\n" // the clients and recorder alone
                + "store: " + store + "\n";
        Campaign c = CampaignLoader.parse(Path.of(name + ".yaml"), yaml);
        StringWriter sw = new StringWriter();
        return new CampaignRunner(c, new PrintWriter(sw), false).run(0, c.workload().seed());
    }

    @Override
    public void close() throws IOException {
        db.close();
        Files.walk(store).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
}
