package isostress.harness.cli;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.ConnectionCheck;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Secrets;
import isostress.harness.hermitage.HermitageRunner;
import isostress.harness.hermitage.HermitageTable;
import isostress.harness.provision.Leftovers;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress hermitage --database CONFIG}: Hermitage's two-session scripts (G0 ... G2) on the campaign's
 * database at read committed, repeatable read and serializable, printed as the prevented/possible table.
 */
@Command(name = "hermitage", mixinStandardHelpOptions = true,
        description = "Replay Hermitage's anomaly scripts on a database at each isolation level; print the table.")
public final class HermitageCommand implements Callable<Integer> {
    @Option(names = "--database", paramLabel = "CONFIG", required = true,
            description = "A campaign YAML; its database section says which database to start or reach.")
    Path config;

    @Option(names = "--verbose", description = "Also print each script's outcome.")
    boolean verbose;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Campaign c = CampaignLoader.load(config);
        DatabaseSpec db = c.database();
        if (!(db.type() instanceof JdbcDatabase)) {
            throw new Main.UsageException("hermitage runs SQL scripts: the database must be postgresql, "
                    + "mariadb or mysql, was " + db.type().name());
        }
        JdbcDatabase database = (JdbcDatabase) db.type();
        PrintWriter out = spec.commandLine().getOut();
        // The database's logs go to a scratch directory: hermitage keeps no run directory. It is removed whatever
        // happens (a database that does not start included), after the database is stopped.
        Path logs = Files.createTempDirectory("isostress-hermitage");
        try (RunningDatabase running = Provisioner.of(db).start(db, logs, 4)) {
            out.println("hermitage on " + Secrets.mask(running.description()));
            out.flush();
            // A wrong password or a closed port: exit 2 with the reason, not a stack trace from the first script.
            ConnectionCheck.require(database, database.clientUrl(running.jdbcUrl()), running.user(), running.password(),
                    db.connectTimeout());
            List<String> detail = new ArrayList<>();
            Map<Isolation, Map<String, String>> table = HermitageTable.run(
                    new HermitageRunner(database, running.jdbcUrl(), running.user(), running.password()), detail);
            if (verbose) detail.forEach(line -> out.println(Secrets.mask(line))); // server errors, quoted
            out.print(HermitageTable.markdown(database.product(), table));
            out.println("✓ prevented, — possible, R/O prevented only in read-only transactions");
        } finally {
            try {
                Leftovers.deleteTree(logs);
            } catch (IOException e) {
                // Not worth failing for (and must not hide the exception that may be on its way out).
                spec.commandLine().getErr().println("isostress: could not remove " + logs + ": " + e.getMessage());
            }
        }
        return 0;
    }
}
