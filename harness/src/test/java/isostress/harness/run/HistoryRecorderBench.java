package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code mvn -B -q -pl harness -am test -Dtest=HistoryRecorderBench -Dsurefire.failIfNoSpecifiedTests=false
 * -Dsurefire.excludedGroups=none}: the recorder's cost on the hot path, one million invoke + complete pairs of a
 * four-op mini transaction (two reads, two writes) from one thread, best of five rounds, printed as one JSON line:
 * wall time and the calling thread's CPU time (steadier on a shared machine).
 */
@Tag("bench")
class HistoryRecorderBench {
    @TempDir
    Path dir;

    @Test
    void millionInvokeCompletePairs() throws Exception {
        int pairs = 1_000_000;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE, bestCpu = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            Path file = dir.resolve("history-" + round + ".jsonl");
            long t0 = System.nanoTime(), c0 = mx.getCurrentThreadCpuTime();
            try (HistoryRecorder r = new HistoryRecorder(file, 0)) {
                for (int i = 0; i < pairs; i++) {
                    long p = i & 15, k = i % 1000;
                    List<MicroOp> inv = List.of(new MicroOp.Read(k, null), new MicroOp.Read(k + 1, null),
                            new MicroOp.Write(k, i), new MicroOp.Write(k + 2, i));
                    r.invoke(p, inv);
                    List<MicroOp> done = List.of(new MicroOp.Read(k, (long) i - 1), new MicroOp.Read(k + 1, null),
                            new MicroOp.Write(k, i), new MicroOp.Write(k + 2, i));
                    r.complete(p, Outcome.OK, done, null, "n1");
                }
            }
            best = Math.min(best, System.nanoTime() - t0);
            bestCpu = Math.min(bestCpu, mx.getCurrentThreadCpuTime() - c0);
            assertEquals(2L * pairs + 1, Files.lines(file).count());
            Files.delete(file);
        }
        System.out.printf(Locale.ROOT, "{\"pairs\":%d,\"best_ms\":%d,\"ns_per_pair\":%d,\"cpu_ns_per_pair\":%d}%n",
                pairs, best / 1_000_000, best / pairs, bestCpu / pairs);
    }
}
