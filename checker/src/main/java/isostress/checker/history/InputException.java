package isostress.checker.history;

/**
 * Bad input: a malformed line, a value that breaks the unique-values assumption, a history no checker accepts.
 * The message names the file and line when they are known. The CLI maps this to exit status 2.
 */
public class InputException extends RuntimeException {
    private final String source;
    private final int line;
    private final String detail;

    public InputException(String source, int line, String message) {
        super(format(source, line, message));
        this.source = source;
        this.line = line;
        this.detail = message;
    }

    public InputException(String source, int line, String message, Throwable cause) {
        super(format(source, line, message), cause);
        this.source = source;
        this.line = line;
        this.detail = message;
    }

    /** The sentence without the file and line it is prefixed with. */
    public String detail() {
        return detail;
    }

    /** The file (or other source name), or null. */
    public String source() {
        return source;
    }

    /** 1-based line, or 0 when not tied to a line. */
    public int line() {
        return line;
    }

    private static String format(String source, int line, String message) {
        StringBuilder sb = new StringBuilder();
        if (source != null) {
            sb.append(source);
            if (line > 0) sb.append(':').append(line);
            sb.append(": ");
        } else if (line > 0) {
            sb.append("line ").append(line).append(": ");
        }
        return sb.append(shorten(message)).toString();
    }

    /** Longest message kept whole: longer ones quote a long value from the input, shortened in the middle. */
    static final int MAX_MESSAGE = 600;

    /**
     * Keeps a message one readable sentence when it quotes a long value from the input (a 100,000-character symbol,
     * key or field name): the start and the end stay, the middle is replaced by its length.
     */
    static String shorten(String message) {
        if (message.length() <= MAX_MESSAGE) return message;
        int head = MAX_MESSAGE * 2 / 3, tail = MAX_MESSAGE / 4;
        return message.substring(0, head) + " [... " + (message.length() - head - tail) + " characters ...] "
                + message.substring(message.length() - tail);
    }
}
