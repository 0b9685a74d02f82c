package isostress.harness.run;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Campaigns for tests: YAML text in, outcome out. */
final class Campaigns {
    private Campaigns() {
    }

    static Campaign parse(Path store, String yaml) {
        return CampaignLoader.parse(Path.of("test.yaml"), yaml + "\nstore: " + store + "\n");
    }

    static RunOutcome run(Campaign c) throws Exception {
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).run(0, c.workload().seed());
        System.out.print(sw);
        return o;
    }
}
