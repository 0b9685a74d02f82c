package isostress.harness.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code workload.rate}, transactions per second, 0 (closed loop) by default. */
class WorkloadRateLoaderTest {
    @Test
    void rateIsPerSecondAndClosedLoopByDefault() {
        assertEquals(0.0, CampaignLoader.parse(FILE, "name: x\n").rate());
        assertEquals(500.0, CampaignLoader.parse(FILE, "workload:\n  rate: 500/s\n").rate());
        assertEquals(2.5, CampaignLoader.parse(FILE, "workload:\n  rate: 2.5 / s\n").rate());
        assertEquals(120.0, CampaignLoader.parse(FILE, "workload:\n  rate: 120\n").rate());
        assertEquals(0.0, CampaignLoader.parse(FILE, "workload:\n  rate: 0/s\n").rate());
        assertEquals(40.0, CampaignLoader.parse(FILE, "workload: {type: list-append, rate: 40/s}\n").rate());
    }

    @Test
    void badRatesNameFileLineAndKey() {
        List<String> p = problems("name: x\nworkload:\n  sessions: 2\n  rate: fast\n");
        hasProblem(p, "camp.yaml:4 workload.rate:", "must be transactions per second such as 500/s");
        hasProblem(problems("workload:\n  rate: -5/s\n"), "camp.yaml:2 workload.rate:", "was '-5/s'");
        hasProblem(problems("workload:\n  rate: -5\n"), "camp.yaml:2 workload.rate:", "such as 500/s");
        hasProblem(problems("workload:\n  rate: 10/min\n"), "camp.yaml:2 workload.rate:", "such as 500/s");
        hasProblem(problems("workload:\n  rate: NaN\n"), "camp.yaml:2 workload.rate:", "such as 500/s");
        hasProblem(problems("workload:\n  rate: Infinity/s\n"), "camp.yaml:2 workload.rate:", "such as 500/s");
        hasProblem(problems("workload:\n  rate: 5000000/s\n"), "camp.yaml:2 workload.rate:", "at most 1000000/s");
        hasProblem(problems("workload:\n  rate: [1, 2]\n"), "camp.yaml:2 workload.rate:", "must be a string");
        hasProblem(problems("workload: {type: sql, sessions: 2, transactions: 10, keys: 4, rate: 10/s}\n"),
                "camp.yaml:1 workload.rate:", "not sql");
    }
}
