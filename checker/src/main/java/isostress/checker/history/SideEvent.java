package isostress.checker.history;

/**
 * An event of the history that is not a transaction: a fault injected by the nemesis, a log line. Kept so that
 * writing a history back loses nothing; checkers ignore them.
 *
 * @param index     global event index
 * @param time      ns since the run started, or -1
 * @param process   the process as written (for example {@code nemesis})
 * @param type      the Jepsen type ({@code invoke}, {@code info}, ...)
 * @param f         the function ({@code start-partition}, ...)
 * @param valueJson the value, as compact JSON text ({@code null} when absent)
 */
public record SideEvent(long index, long time, String process, String type, String f, String valueJson) {
}
