package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.index.AnomalyLog;
import isostress.checker.model.CheckOptions;

/** What every per-level check of one mini-transaction history shares. */
record MiniContext(RegisterIndex m, MiniGraph g, CycleReporter reporter, AnomalyLog anomalies, CheckOptions options,
                   Derived derived) {
    MiniContext(RegisterIndex m, MiniGraph g, CycleReporter reporter, AnomalyLog anomalies, CheckOptions options) {
        this(m, g, reporter, anomalies, options, new Derived(m, g));
    }
}
