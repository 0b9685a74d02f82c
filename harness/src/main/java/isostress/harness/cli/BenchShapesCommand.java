package isostress.harness.cli;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.sim.WorstCaseShapes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench shapes}: times {@code check} on the shapes fuzzing found superlinear
 * ({@link WorstCaseShapes}) at sizes n, 3n, 9n, ..., so a reader sees the growth: one JSON line per shape and size,
 * with the time of each level's check (as {@code check --level L} runs it) and its ratio to the previous size's.
 * The histories are built in memory (parsing is {@code bench check}'s business) and valid by construction.
 */
@Command(name = "shapes", mixinStandardHelpOptions = true,
        description = "Time the checker on worst-case shapes at growing sizes (n, 3n, 9n, ...).")
public final class BenchShapesCommand implements Callable<Integer> {
    @Option(names = "--shape", paramLabel = "NAME", split = ",", defaultValue = "blind-writes,long-txn,long-txn-blind",
            description = "Shapes, comma-separated: blind-writes, long-txn, long-txn-blind (default ${DEFAULT-VALUE}).")
    List<String> shapes;

    @Option(names = "--size", paramLabel = "N", defaultValue = "30000",
            description = "The first size: transactions (blind-writes) or writes of the long transaction "
                    + "(default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--steps", defaultValue = "3", description = "Sizes, each 3x the previous (default ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--level", paramLabel = "LEVEL", split = ",", defaultValue = "ser,si,cc",
            description = "Levels, each checked on its own (default ${DEFAULT-VALUE}).")
    List<String> levels;

    @Override
    public Integer call() throws Exception {
        List<WorstCaseShapes> chosen = new ArrayList<>();
        for (String s : shapes) {
            WorstCaseShapes w = WorstCaseShapes.byName(s);
            if (w == null) throw new Main.UsageException("unknown --shape '" + s + "': use blind-writes, long-txn or long-txn-blind");
            chosen.add(w);
        }
        List<IsolationLevel> ls = new ArrayList<>();
        for (String s : levels) {
            IsolationLevel l = IsolationLevel.byName(s);
            if (l == null) throw new Main.UsageException("unknown --level '" + s + "': use " + IsolationLevel.names());
            ls.add(l);
        }
        if (size < 1 || steps < 1) throw new Main.UsageException("--size and --steps must be at least 1");
        JsonMapper json = JsonMapper.builder().build();
        for (WorstCaseShapes w : chosen) {
            // Warm-up: the first size's checks once, untimed, so the JIT's compilation is not counted in it.
            History warm = w.history(size);
            for (IsolationLevel l : ls) Checker.check(warm, List.of(l), CheckOptions.DEFAULTS);
            Map<IsolationLevel, Long> previous = new LinkedHashMap<>();
            long n = size;
            for (int step = 0; step < steps; step++, n *= 3) {
                if (n > Integer.MAX_VALUE / 4) throw new Main.UsageException("size " + n + " is too large");
                History h = w.history((int) n);
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("shape", w.cliName());
                line.put("n", n);
                line.put("txns", h.size());
                line.put("ops", h.opCount());
                String checker = null;
                for (IsolationLevel l : ls) {
                    System.gc(); // the previous check's index is garbage: collect it outside the timed part
                    long t0 = System.nanoTime();
                    Result r = Checker.check(h, List.of(l), CheckOptions.DEFAULTS);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    LevelResult lr = r.level(l);
                    checker = r.shape();
                    if (lr.verdict() != Verdict.VALID) {
                        throw new IllegalStateException("the " + w.cliName() + " history is valid by construction, but "
                                + l + " says " + lr.verdict().jsonName() + ": " + lr.reason());
                    }
                    line.put(l.alias() + "_ms", ms);
                    Long before = previous.put(l, ms);
                    if (before != null) {
                        line.put(l.alias() + "_x", Math.round(100.0 * ms / Math.max(1, before)) / 100.0);
                    }
                }
                line.put("checker", checker);
                System.out.println(json.writeValueAsString(line));
                System.out.flush();
            }
        }
        return Main.VALID;
    }
}
