package isostress.harness.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Peak heap in use during a timed section (what the benchmarks report as "peak heap").
 *
 * <p>Why not the memory pools' peak usage: each pool (eden, survivor, old) has its own peak, reached at different
 * moments, so their sum overstates the peak, by more than the heap's size at 100M transactions (25.9 GB reported
 * in a 20 GB heap whose GC log never showed more than 19.7 GB). Heap use only grows between collections, so its peak
 * is the largest "used before GC" of any collection (all pools at the same instant, from the collector's
 * notification), or the use at the section's end if that is larger.
 */
final class HeapMeter {
    private static final AtomicLong PEAK_BEFORE_GC = new AtomicLong();
    private static final Set<String> HEAP_POOLS = new HashSet<>();

    static {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) HEAP_POOLS.add(p.getName());
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!(gc instanceof NotificationEmitter emitter)) continue;
            emitter.addNotificationListener((n, handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) return;
                GarbageCollectionNotificationInfo info =
                        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long used = heapUsed(info.getGcInfo().getMemoryUsageBeforeGc());
                PEAK_BEFORE_GC.accumulateAndGet(used, Math::max);
            }, null, null);
        }
    }

    private HeapMeter() {
    }

    /** Starts a new measurement. */
    static void reset() {
        PEAK_BEFORE_GC.set(0);
    }

    /** The peak heap in use since {@link #reset}, in MB. */
    static long peakMb() {
        long now = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) now += p.getUsage().getUsed();
        }
        return Math.max(PEAK_BEFORE_GC.get(), now) >> 20;
    }

    private static long heapUsed(Map<String, MemoryUsage> byPool) {
        long sum = 0;
        for (Map.Entry<String, MemoryUsage> e : byPool.entrySet()) {
            if (HEAP_POOLS.contains(e.getKey())) sum += e.getValue().getUsed();
        }
        return sum;
    }

    /** The heap pools' names (for tests). */
    static List<String> heapPools() {
        return List.copyOf(HEAP_POOLS);
    }
}
