package isostress.harness.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import isostress.checker.history.MicroOp;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code isostress generate CAMPAIGN --out FILE}: writes the campaign's workload without running it, one
 * transaction per line in session order: {@code {"session":0,"shape":"R1W1","value":[["r",5,null],["w",5,12]]}}.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write a campaign's workload (what each session will ask) without running it.")
public final class GenerateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML file.")
    Path file;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the workload.")
    Path out;

    @Option(names = "--seed", paramLabel = "SEED", description = "Override the campaign's workload seed.")
    Long seed;

    @Override
    public Integer call() throws Exception {
        Campaign c = CampaignLoader.load(file);
        if (c.workload().type() == isostress.generator.workload.WorkloadType.SQL) return sql(c);
        Workload w = WorkloadGenerator.generate(seed == null ? c.workload() : c.workload().withSeed(seed));
        try (Writer wr = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            StringBuilder sb = new StringBuilder();
            for (int s = 0; s < w.spec().sessions(); s++) {
                for (int i = 0; i < w.sessionSize(s); i++) {
                    int t = w.txn(s, i);
                    sb.setLength(0);
                    sb.append("{\"session\":").append(s).append(",\"shape\":\"");
                    JsonStringEncoder.getInstance().quoteAsString(w.shape(t), sb);
                    sb.append("\",\"value\":[");
                    boolean first = true;
                    for (MicroOp m : w.ops(t)) {
                        if (!first) sb.append(',');
                        first = false;
                        sb.append("[\"").append(m.function()).append("\",").append(m.key()).append(',');
                        if (m instanceof MicroOp.Write) sb.append(((MicroOp.Write) m).value());
                        else if (m instanceof MicroOp.Append) sb.append(((MicroOp.Append) m).value());
                        else if (m instanceof MicroOp.Cas) sb.append("[null,").append(((MicroOp.Cas) m).newValue()).append(']');
                        else sb.append("null");
                        sb.append(']');
                    }
                    wr.append(sb.append("]}\n"));
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
    private Integer sql(Campaign c) throws java.io.IOException {
        isostress.generator.sql.SqlWorkload w = isostress.generator.sql.SqlWorkloadGenerator.generate(
                seed == null ? c.workload() : c.workload().withSeed(seed), c.database().isolation().yamlName());
        try (Writer wr = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            for (java.util.List<isostress.generator.sql.SqlTxn> session : w.sessions()) {
                for (isostress.generator.sql.SqlTxn t : session) {
                    StringBuilder sb = new StringBuilder();
                    sb.append("{\"session\":").append(t.session()).append(",\"index\":").append(t.index())
                            .append(",\"isolation\":\"").append(t.isolation()).append("\",\"statements\":[");
                    for (int i = 0; i < t.statements().size(); i++) {
                        isostress.generator.sql.SqlStatement st = t.statements().get(i);
                        sb.append(i == 0 ? "" : ",").append("{\"kind\":\"")
                                .append(st.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
                                .append('"');
                        if (st.where() != null) sb.append(",\"where\":").append(st.where().json());
                        if (st.kind() == isostress.generator.sql.SqlStatement.Kind.UPDATE) {
                            sb.append(",\"amount\":").append(st.amount());
                        }
                        if (st.kind() == isostress.generator.sql.SqlStatement.Kind.INSERT) {
                            sb.append(",\"id\":").append(st.id()).append(",\"grp\":").append(st.grp())
                                    .append(",\"bal\":").append(st.amount());
                        }
                        sb.append('}');
                    }
                    wr.append(sb.append("]}\n"));
                }
            }
        }
        System.err.printf("wrote %,d sql transactions (%d sessions) to %s%n", w.size(), w.sessions().size(), out);
        return Main.VALID;
    }
}
