package isostress.harness.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.MicroOp;
import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlTxnPlan;
import isostress.generator.sql.SqlWorkload;
import isostress.generator.sql.SqlWorkloadGenerator;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code isostress generate}: one JSON line per transaction, in session order, holding what the generator made. */
class GenerateCommandTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    List<JsonNode> generate(Path campaign) throws Exception {
        Path out = dir.resolve("workload.jsonl");
        CheckCommandTest.Run r = CheckCommandTest.run("generate", campaign.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(out)) lines.add(JSON.readTree(line));
        return lines;
    }

    @Test
    void miniWorkloadLinesAreTheGeneratorsTransactions() throws Exception {
        Path yaml = dir.resolve("mini.yaml");
        Files.writeString(yaml, "name: g\ndatabase: {type: postgresql, isolation: serializable}\n"
                + "workload: {type: rw-register, sessions: 3, transactions: 200, keys: 10, seed: 5}\n");
        Campaign c = CampaignLoader.load(yaml);
        Workload w = WorkloadGenerator.generate(c.workload());
        List<JsonNode> lines = generate(yaml);
        assertEquals(w.size(), lines.size());
        int n = 0;
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < w.sessionSize(s); i++) {
                int t = w.txn(s, i);
                JsonNode line = lines.get(n++);
                assertEquals(s, line.path("session").asInt());
                assertEquals(w.shape(t), line.path("shape").asText());
                List<MicroOp> ops = w.ops(t);
                assertEquals(ops.size(), line.path("value").size());
                for (int k = 0; k < ops.size(); k++) {
                    JsonNode op = line.path("value").get(k);
                    MicroOp m = ops.get(k);
                    assertEquals(m.function(), op.get(0).asText());
                    assertEquals(m.key(), op.get(1).asLong());
                    if (m instanceof MicroOp.Write) assertEquals(((MicroOp.Write) m).value(), op.get(2).asLong());
                    else assertEquals(true, op.get(2).isNull(), op.toString());
                }
            }
        }
    }

    @Test
    void sqlWorkloadLinesAreTheGeneratorsStatements() throws Exception {
        Path yaml = Path.of("../configs/sql-mixed.yaml");
        Campaign c = CampaignLoader.load(yaml);
        SqlWorkload w = SqlWorkloadGenerator.generate(c.workload(), c.database().isolation().yamlName());
        List<JsonNode> lines = generate(yaml);
        int n = 0;
        for (List<SqlTxnPlan> session : w.sessions()) {
            for (SqlTxnPlan t : session) {
                JsonNode line = lines.get(n++);
                assertEquals(t.session(), line.path("session").asInt());
                assertEquals(t.index(), line.path("index").asInt());
                assertEquals(t.isolation(), line.path("isolation").asText());
                for (int i = 0; i < t.statements().size(); i++) {
                    SqlStatement st = t.statements().get(i);
                    JsonNode j = line.path("statements").get(i);
                    assertEquals(st.kind().name().toLowerCase().replace('_', '-'), j.path("kind").asText());
                    if (st.where() != null) assertEquals(JSON.readTree(st.where().json()), j.path("where"));
                    if (st.kind() == SqlStatement.Kind.INSERT) assertEquals(st.id(), j.path("id").asLong());
                }
            }
        }
        assertEquals(n, lines.size());
    }
}
