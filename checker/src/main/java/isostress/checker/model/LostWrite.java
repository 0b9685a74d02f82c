package isostress.checker.model;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;

/**
 * An acknowledged write that the reads after it do not show: {@code lost-write}, the same finding a commit log
 * makes when it lacks an acknowledged commit ({@link WitnessFinding.Kind#LOST_WRITE}), here shown by reads alone
 * (the final reads a run takes once its faults are healed). Not an isolation anomaly: no level allows it.
 *
 * @param writer      the {@code ok} transaction that made the write
 * @param write       the write: an append of an element, or a register write of a value
 * @param read        the last read of the key, begun after the writer completed, that lacks it
 * @param primary     the leader the history's fault events last named before the write was acknowledged, or null
 *                    when they name none (a zombie primary may have acknowledged it all the same: the explanation
 *                    says which fault was under way)
 * @param explanation the finding in words
 */
public record LostWrite(Txn writer, MicroOp write, Txn read, String primary, String explanation) {
    /** The finding's name, as the commit log's. */
    public static final String NAME = "lost-write";
    /** The {@code f} of the side event a history with final reads carries before them. */
    public static final String FINAL_READS = "final-reads";
}
