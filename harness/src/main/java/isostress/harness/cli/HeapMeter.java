package isostress.harness.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Peak heap use of a timed section, from the JVM's memory pools (what the benchmarks report as "peak heap"). */
final class HeapMeter {
    private HeapMeter() {
    }

    /** Starts a new measurement. */
    static void reset() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) p.resetPeakUsage();
        }
    }

    /** Sum of the heap pools' peak usage since {@link #reset}: an upper bound on the peak heap in use, in MB. */
    static long peakMb() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
        }
        return sum >> 20;
    }
}
