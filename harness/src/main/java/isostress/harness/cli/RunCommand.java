package isostress.harness.cli;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.Databases;
import isostress.harness.db.Provision;
import isostress.harness.run.CampaignRunner;
import isostress.harness.run.RunOutcome;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code isostress run CAMPAIGN}: start the database, run the workload, record the history, check it. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a campaign: start the database, run the workload, record and check the history.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every run valid", "1:a violation was found", "2:configuration or infrastructure error",
                "3:a history could not be decided", "70:internal error",
                "130:interrupted (Ctrl-C): results.json says \"interrupted\": true; the database was stopped"})
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML file.")
    Path file;

    @Option(names = "--runs", paramLabel = "N", description = "Override the campaign's runs.")
    Integer runs;

    @Option(names = "--stop-on-violation", arity = "0..1", fallbackValue = "run", paramLabel = "run|campaign",
            description = "End each run at its first violation (run, the default when given without a value), and "
                    + "with campaign start no further run; false runs every run to its end. Overrides the campaign.")
    String stopOnViolation;

    @Option(names = "--provision", paramLabel = "embedded|local|docker",
            description = "Override database.provision, e.g. docker to run a PostgreSQL campaign of any version in a "
                    + "container (an image built here from the embedded binaries when no postgres:<version> is local).")
    String provision;

    @CommandLine.Mixin
    SeedOverrideOption seedOverride;

    @Option(names = "--no-progress", description = "No progress bar.")
    boolean noProgress;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Campaign c = CampaignLoader.load(file, provision());
        if (runs != null) {
            if (runs < 1) throw new Main.UsageException("--runs must be >= 1");
            c = c.withRuns(runs);
        }
        if (stopOnViolation != null) {
            Campaign.StopOnViolation stop = Campaign.StopOnViolation.byName(stopOnViolation);
            if (stop == null) {
                throw new Main.UsageException("--stop-on-violation must be run, campaign, true or false, was '"
                        + stopOnViolation + "'");
            }
            c = c.withStopOnViolation(stop);
        }
        long base = seedOverride.seed != null ? seedOverride.seed : c.workload().seed();
        PrintWriter out = spec.commandLine().getOut();
        List<RunOutcome> outcomes = new CampaignRunner(c, out, !noProgress).runAll(base);
        int status = 0;
        for (RunOutcome o : outcomes) {
            // Ctrl-C: the JVM exits with 130 whatever is returned here; say the same.
            if (o.interrupted()) return RunOutcome.INTERRUPTED;
            status = worst(status, o.exitStatus());
        }
        return status;
    }

    /**
     * The {@code --provision} given, or null: one some registered database supports; external is not offered, as it
     * needs a url the file lacks.
     */
    private Provision provision() {
        if (provision == null) return null;
        Set<Provision> offered = EnumSet.copyOf(Databases.provisions());
        offered.remove(Provision.EXTERNAL);
        for (Provision p : offered) {
            if (p.yamlName().equalsIgnoreCase(provision)) return p;
        }
        throw new Main.UsageException("--provision must be " + Databases.either(Databases.yamlNames(offered))
                + ", was '" + provision + "'");
    }

    /** 2 (error) beats 1 (invalid) beats 3 (unknown) beats 0. */
    static int worst(int a, int b) {
        int[] rank = {0, 2, 3, 1};
        return rank[a] >= rank[b] ? a : b;
    }
}
