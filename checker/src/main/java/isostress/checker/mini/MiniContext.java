package isostress.checker.mini;

import isostress.checker.CheckOptions;

/** What every per-level check of one mini-transaction history shares. */
record MiniContext(MiniHistory m, MiniGraph g, CycleReporter reporter, Anomalies anomalies, CheckOptions options) {
}
