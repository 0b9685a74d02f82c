package isostress.harness.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.json.JsonMapper;
import isostress.checker.history.MicroOp;
import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlTxnPlan;
import isostress.generator.sql.SqlWorkload;
import isostress.generator.sql.SqlWorkloadGenerator;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress generate CAMPAIGN --out FILE}: writes the campaign's workload without running it, one
 * transaction per line in session order: {@code {"session":0,"shape":"R1W1","value":[["r",5,null],["w",5,12]]}}.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write a campaign's workload (what each session will ask) without running it.")
public final class GenerateCommand implements Callable<Integer> {
    /** Writes the lines (its codec writes a predicate's JSON tree). */
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML file.")
    Path file;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the workload.")
    Path out;

    @CommandLine.Mixin
    SeedOverrideOption seedOverride;

    @Override
    public Integer call() throws Exception {
        Campaign c = CampaignLoader.load(file);
        if (c.workload().type() == isostress.generator.workload.WorkloadType.SQL) return sql(c);
        Workload w = WorkloadGenerator.generate(seeded(c));
        try (OutputStream os = Files.newOutputStream(out); JsonGenerator g = lines(os)) {
            for (int s = 0; s < w.spec().sessions(); s++) {
                for (int i = 0; i < w.sessionSize(s); i++) {
                    int t = w.txn(s, i);
                    g.writeStartObject();
                    g.writeNumberField("session", s);
                    g.writeStringField("shape", w.shape(t));
                    g.writeArrayFieldStart("value");
                    for (MicroOp m : w.ops(t)) {
                        g.writeStartArray();
                        g.writeString(m.function());
                        g.writeNumber(m.key());
                        if (m instanceof MicroOp.Write) {
                            g.writeNumber(((MicroOp.Write) m).value());
                        } else if (m instanceof MicroOp.Append) {
                            g.writeNumber(((MicroOp.Append) m).value());
                        } else if (m instanceof MicroOp.Cas) {
                            g.writeStartArray();
                            g.writeNull();
                            g.writeNumber(((MicroOp.Cas) m).newValue());
                            g.writeEndArray();
                        } else {
                            g.writeNull(); // a read: its value is what the run will see
                        }
                        g.writeEndArray();
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                    g.writeRaw('\n');
                }
            }
        }
        System.err.printf("wrote %,d transactions (%d sessions) to %s%n", w.size(), w.spec().sessions(), out);
        return Main.VALID;
    }

    /**
     * An sql workload: one transaction per line, {@code {"session":0,"index":0,"isolation":"serializable",
     * "statements":[{"kind":"select","where":{"eq":["grp",1]}}, {"kind":"insert","id":7,"grp":1,"bal":150}, ...]}}.
     */
    private Integer sql(Campaign c) throws IOException {
        SqlWorkload w = SqlWorkloadGenerator.generate(seeded(c),
                c.database().isolation().yamlName());
        try (OutputStream os = Files.newOutputStream(out); JsonGenerator g = lines(os)) {
            for (List<SqlTxnPlan> session : w.sessions()) {
                for (SqlTxnPlan t : session) {
                    g.writeStartObject();
                    g.writeNumberField("session", t.session());
                    g.writeNumberField("index", t.index());
                    g.writeStringField("isolation", t.isolation());
                    g.writeArrayFieldStart("statements");
                    for (SqlStatement st : t.statements()) {
                        g.writeStartObject();
                        g.writeStringField("kind", st.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
                        if (st.where() != null) {
                            g.writeFieldName("where");
                            g.writeObject(st.where().predicate().toJson());
                        }
                        if (st.kind() == SqlStatement.Kind.UPDATE) g.writeNumberField("amount", st.amount());
                        if (st.kind() == SqlStatement.Kind.INSERT) {
                            g.writeNumberField("id", st.id());
                            g.writeNumberField("grp", st.grp());
                            g.writeNumberField("bal", st.amount());
                        }
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                    g.writeRaw('\n');
                }
            }
        }
        System.err.printf("wrote %,d sql transactions (%d sessions) to %s%n", w.size(), w.sessions().size(), out);
        return Main.VALID;
    }

    /** A generator of JSON lines: no separator between root values, each ends with the '\n' written after it. */
    private static JsonGenerator lines(OutputStream os) throws IOException {
        return MAPPER.getFactory().createGenerator(os).setRootValueSeparator(null);
    }

    /** The campaign's workload, with --seed's seed when given. */
    private isostress.generator.workload.WorkloadSpec seeded(Campaign c) {
        return seedOverride.seed == null ? c.workload() : c.workload().withSeed(seedOverride.seed);
    }
}
