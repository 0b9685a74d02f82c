package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.workload.WorkloadType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The campaign keys of {@code workload.type: sql}: defaults and every error with file, line, key path. */
class SqlCampaignLoaderTest {
    @Test
    void smallDefaultsAndNoExtraLevels() {
        Campaign c = CampaignLoader.parse(FILE, "workload: {type: sql}\n");
        assertEquals(WorkloadType.SQL, c.workload().type());
        assertEquals(3, c.workload().sessions());
        assertEquals(30, c.workload().transactions());
        assertEquals(6, c.workload().keys());
        assertEquals(3, c.workload().groups());
        assertEquals(4, c.workload().maxOps());
        assertEquals(Map.of(), c.workload().isolationMix());
        assertEquals(List.of(), c.levels(), "each transaction is checked at its own level");
        assertTrue(!c.streaming());
        assertEquals(Duration.ofSeconds(60), c.checkTimeout());
    }

    @Test
    void isolationMixAndLevels() {
        Campaign c = CampaignLoader.parse(FILE, "workload:\n  type: sql\n  groups: 2\n  isolation-mix: "
                + "{serializable: 70, read-committed: 30, snapshot: 0}\ncheck: {levels: [serializable], timeout: 5s}\n");
        assertEquals(Map.of("serializable", 70.0, "read-committed", 30.0), c.workload().isolationMix());
        assertEquals(2, c.workload().groups());
        assertEquals(List.of(IsolationLevel.SERIALIZABLE), c.levels());
        assertEquals(Duration.ofSeconds(5), c.checkTimeout());
    }

    @Test
    void unknownLevelsAndBadWeightsNameFileLineAndKeyPath() {
        List<String> p = problems("name: x\nworkload:\n  type: sql\n  isolation-mix:\n    serialisable: 1\n"
                + "    read-committed: lots\n    repeatable-read: -2\n");
        hasProblem(p, "camp.yaml:5 workload.isolation-mix.serialisable:", "unknown isolation level; the mix takes "
                + "read-committed, repeatable-read, snapshot, serializable");
        hasProblem(p, "camp.yaml:6 workload.isolation-mix.read-committed:", "weight must be a number >= 0, was 'lots'");
        hasProblem(p, "camp.yaml:7 workload.isolation-mix.repeatable-read:", "weight must be a number >= 0");
        hasProblem(p, "camp.yaml:4 workload.isolation-mix:", "at least one level needs a positive weight");
        assertEquals(4, p.size(), p.toString());
    }

    @Test
    void sqlKeysOnOtherWorkloadsAndOtherKeysOnSql() {
        hasProblem(problems("workload:\n  type: mini\n  isolation-mix: {serializable: 1}\n"),
                "camp.yaml:3 workload.isolation-mix:", "only applies to workload.type sql");
        hasProblem(problems("workload:\n  type: list-append\n  groups: 4\n"), "camp.yaml:3 workload.groups:",
                "only applies to workload.type sql");
        hasProblem(problems("workload: {type: mini}\ncheck:\n  timeout: 5s\n"), "camp.yaml:3 check.timeout:",
                "only applies to workload.type sql");
        hasProblem(problems("workload: {type: sql}\ncheck:\n  levels: [causal]\n"), "camp.yaml:3 check.levels[0]:",
                "the SQL checker decides");
        hasProblem(problems("workload: {type: sql, groups: 0}\n"), "camp.yaml:1 workload.groups:", "must be >= 1");
    }

    @Test
    void theDatabaseMustSupportIt() {
        hasProblem(problems("database:\n  type: mariadb\nworkload:\n  type: sql\n  isolation-mix:\n    snapshot: 1\n"),
                "camp.yaml:6 workload.isolation-mix.snapshot:", "mariadb has no snapshot isolation level");
        hasProblem(problems("database: {type: mongodb, url: \"mongodb://h\"}\nworkload:\n  type: sql\n"),
                "camp.yaml:3 workload.type:", "sql needs an SQL database");
        hasProblem(problems("database:\n  tables: 3\nworkload: {type: sql}\n"), "camp.yaml:2 database.tables:",
                "use one table");
        hasProblem(problems("workload: {type: sql}\nnemesis: {faults: [kill]}\n"), "camp.yaml:1 workload.type:",
                "do not run under a nemesis");
    }
}
