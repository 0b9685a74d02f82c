package isostress.harness.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeapMeterTest {
    @Test
    void thePeakCoversWhatWasLiveAtOnceAndNoMoreThanTheHeap() throws Exception {
        assertFalse(HeapMeter.heapPools().isEmpty());
        System.gc();
        HeapMeter.reset();
        long before = HeapMeter.peakMb();
        List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < 40; i++) live.add(new byte[4 << 20]); // 160 MB live at once
        for (int i = 0; i < 200; i++) new byte[1 << 20].clone(); // garbage, so that collections happen
        long withLive = HeapMeter.peakMb();
        live.clear();
        System.gc();
        Thread.sleep(200); // the collector's notification comes on the JVM's service thread
        long peak = HeapMeter.peakMb();
        long max = Runtime.getRuntime().maxMemory() >> 20;
        assertTrue(withLive >= before + 150, "peak " + withLive + " MB with 160 MB live, " + before + " MB before");
        assertTrue(peak >= withLive, "the peak does not drop when memory is freed: " + peak + " < " + withLive);
        assertTrue(peak <= max, "peak " + peak + " MB above the heap's " + max + " MB");
    }
}
