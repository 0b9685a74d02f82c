package isostress.harness.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT) or SIGTERM while a run is under way. The JVM starts all shutdown hooks at once, in no set order:
 * with one hook closing the history, one stopping the database and one healing the faults, sessions still running
 * failed ("history closed"), a hook added meanwhile failed ("Shutdown in progress"), and that became the run's
 * error. So there is one hook, and it only asks: it marks the run interrupted and stops its sessions, then waits
 * while the run's own thread, which keeps running during shutdown, ends the run in the usual order: sessions
 * joined, history closed, faults healed, database stopped, results.json written saying {@code "interrupted":
 * true}. The JVM then exits with 128 + SIGINT = 130. Should that take longer than {@link #GRACE_SECONDS}, the
 * hook gives up and the harness's watchdog ({@link isostress.harness.provision.Watchdog}) stops what is left.
 */
final class RunInterrupt {
    /** How long the hook waits for the run to end itself: a transaction in flight ends within the client timeout. */
    static final int GRACE_SECONDS = 30;
    private static boolean hooked;
    private static boolean shuttingDown;
    private static RunInterrupt active;

    private final Runnable stop;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean interrupted;

    private RunInterrupt(Runnable stop) {
        this.stop = stop;
    }

    /**
     * Registers the run starting now; {@code stop} asks its sessions to stop after the transaction under way. The
     * caller calls {@link #end()} once its results are written, whatever happened.
     */
    static synchronized RunInterrupt begin(Runnable stop) {
        RunInterrupt r = new RunInterrupt(stop);
        if (!hooked) {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(RunInterrupt::shutdown, "isostress-interrupt"));
                hooked = true;
            } catch (IllegalStateException e) {
                shuttingDown = true; // already exiting: this run ends before it starts
            }
        }
        if (shuttingDown) r.interrupted = true;
        active = r;
        return r;
    }

    /** True once the JVM is shutting down: no further run should start. */
    static synchronized boolean shuttingDown() {
        return shuttingDown;
    }

    /** True when the run was interrupted: it winds down, and what fails from now on is a consequence, not a cause. */
    boolean interrupted() {
        return interrupted;
    }

    /** The run's results are written (or it failed): the hook may let the JVM exit. */
    void end() {
        synchronized (RunInterrupt.class) {
            if (active == this) active = null;
        }
        ended.countDown();
    }

    private static void shutdown() {
        RunInterrupt r;
        synchronized (RunInterrupt.class) {
            shuttingDown = true;
            r = active;
        }
        if (r == null) return; // between runs, or a normal exit
        r.interrupted = true;
        r.stop.run();
        try {
            if (!r.ended.await(GRACE_SECONDS, TimeUnit.SECONDS)) {
                System.err.println("isostress: the interrupted run did not wind down within " + GRACE_SECONDS
                        + " s; exiting (the watchdog stops what it started)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
