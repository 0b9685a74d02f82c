package isostress.generator.workload;

import isostress.checker.history.MicroOp;
import isostress.generator.KeyDistribution;
import isostress.generator.MtShape;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Workloads are a pure function of their spec, and have the shapes and values promised. */
class WorkloadGeneratorTest {
    static List<List<MicroOp>> all(Workload w) {
        List<List<MicroOp>> out = new ArrayList<>();
        for (int t = 0; t < w.size(); t++) out.add(w.ops(t));
        return out;
    }

    static WorkloadSpec spec(WorkloadType type, long seed) {
        return WorkloadSpec.mini(5, 3000, 50, new KeyDistribution.Zipfian(50, 1.1), seed).withType(type)
                .withOps(2, 8, 0.4, 0.5);
    }

    @Test
    void sameSeedSameWorkloadOtherSeedOtherWorkload() {
        for (WorkloadType type : WorkloadType.values()) {
            if (type == WorkloadType.SQL) continue; // its own generator: SqlWorkloadGeneratorTest
            assertEquals(all(WorkloadGenerator.generate(spec(type, 9))), all(WorkloadGenerator.generate(spec(type, 9))),
                    type + " is deterministic");
            assertNotEquals(all(WorkloadGenerator.generate(spec(type, 9))), all(WorkloadGenerator.generate(spec(type, 10))),
                    type + " depends on the seed");
        }
    }

    @Test
    void miniTransactionsFollowTheShapesAndWriteUniqueValues() {
        Workload w = WorkloadGenerator.generate(spec(WorkloadType.MINI, 1));
        Set<Long> values = new HashSet<>();
        Map<String, Integer> shapes = new HashMap<>();
        for (int t = 0; t < w.size(); t++) {
            List<MicroOp> ops = w.ops(t);
            MtShape shape = MtShape.valueOf(w.shape(t));
            shapes.merge(shape.name(), 1, Integer::sum);
            assertEquals(shape.size(), ops.size());
            Set<Long> keys = new HashSet<>(), read = new HashSet<>();
            for (MicroOp m : ops) {
                keys.add(m.key());
                if (m instanceof MicroOp.Read) read.add(m.key());
                if (m instanceof MicroOp.Write) {
                    assertTrue(read.contains(m.key()), "write preceded by a read of its key: " + ops);
                    assertTrue(values.add(((MicroOp.Write) m).value()), "unique values");
                    assertTrue(((MicroOp.Write) m).value() > 0, "0 is the initial value");
                }
            }
            assertEquals(shape.twoKeys() ? 2 : 1, keys.size());
        }
        assertEquals(MtShape.values().length, shapes.size(), "all 14 shapes occur");
    }

    @Test
    void sessionsSplitTheTransactions() {
        Workload w = WorkloadGenerator.generate(spec(WorkloadType.RW_REGISTER, 1));
        int total = 0;
        Set<Integer> seen = new HashSet<>();
        for (int s = 0; s < 5; s++) {
            for (int i = 0; i < w.sessionSize(s); i++) assertTrue(seen.add(w.txn(s, i)));
            total += w.sessionSize(s);
        }
        assertEquals(3000, total);
    }

    @Test
    void shapeWeightsAndRotation() {
        Workload w = WorkloadGenerator.generate(spec(WorkloadType.MINI, 2).withShapes(Map.of(MtShape.R1W1, 1.0))
                .withRotateAfter(10));
        for (int t = 0; t < w.size(); t++) assertEquals("R1W1", w.shape(t));
        assertTrue(w.maxKey() >= 50 + 3000 / 10 / 2, "keys were retired for fresh ones: max key " + w.maxKey());
    }
}
