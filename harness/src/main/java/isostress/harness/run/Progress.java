package isostress.harness.run;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The terminal progress bar (the progressbar library): transactions done, commits, aborts, unknowns, rate. Shown
 * only on a terminal; otherwise nothing (logs stay clean).
 */
final class Progress implements AutoCloseable {
    private final ProgressBar bar;
    private final ScheduledExecutorService ticker;
    private final RunStats stats;

    private Progress(ProgressBar bar, RunStats stats) {
        this.bar = bar;
        this.stats = stats;
        this.ticker = bar == null ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        if (ticker != null) ticker.scheduleAtFixedRate(this::update, 200, 200, TimeUnit.MILLISECONDS);
    }

    static Progress start(boolean enabled, long total, RunStats stats) {
        if (!enabled || System.console() == null) return new Progress(null, stats);
        ProgressBar bar = new ProgressBarBuilder().setTaskName("txns").setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).showSpeed().continuousUpdate().build();
        return new Progress(bar, stats);
    }

    private void update() {
        bar.stepTo(stats.done.get());
        bar.setExtraMessage(String.format(" ok %d fail %d info %d", stats.ok.get(), stats.failed.get(),
                stats.info.get()));
    }

    @Override
    public void close() {
        if (bar == null) return;
        ticker.shutdownNow();
        update();
        bar.close();
    }
}
