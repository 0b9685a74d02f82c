package isostress.harness.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The bytes of a campaign file as text. Java's own {@code Files.readString} answers a bad byte with
 * {@code MalformedInputException: Input length = 1}, naming neither file nor line; here the decoder stops at the
 * first bad byte and the problem names its line. Campaigns are a few kilobytes, so anything above {@link #MAX_CHARS}
 * is not one (and the cap bounds the time every later pass takes).
 */
final class CampaignText {
    /** Largest campaign accepted, in bytes (or characters for text given directly); shipped ones are under 4 KiB. */
    static final int MAX_CHARS = 1 << 20;

    private CampaignText() {
    }

    /** Strict UTF-8 (no replacement characters), without a leading byte order mark; null after adding one problem. */
    static String decode(String file, byte[] bytes, List<String> problems) {
        if (bytes.length > MAX_CHARS) {
            problems.add(file + ":1 the file has " + bytes.length + " bytes; a campaign has at most " + MAX_CHARS
                    + " (is it the right file?)");
            return null;
        }
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1); // UTF-8 never decodes to more chars than bytes
        CoderResult r = d.decode(in, out, true);
        if (!r.isError()) r = d.flush(out);
        if (r.isError()) {
            int at = in.position(), line = 1, lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            problems.add(String.format("%s:%d invalid UTF-8 (byte 0x%02X, byte %d of the line): a campaign is UTF-8 "
                    + "text", file, line, at < bytes.length ? bytes[at] & 0xff : 0, at - lineStart + 1));
            return null;
        }
        return withoutBom(out.flip().toString());
    }

    /** The text itself, when given as a string; null after adding one problem when it is too long. */
    static String check(String file, String text, List<String> problems) {
        if (text.length() > MAX_CHARS) {
            problems.add(file + ":1 the text has " + text.length() + " characters; a campaign has at most "
                    + MAX_CHARS);
            return null;
        }
        return withoutBom(text);
    }

    private static String withoutBom(String s) {
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }
}
