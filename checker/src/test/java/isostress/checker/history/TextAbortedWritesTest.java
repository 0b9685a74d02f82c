package isostress.checker.history;

import isostress.checker.Checker;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Plume's and AWDIT's aborted writes in the text format: {@code w(k,v,s,-1)}. */
class TextAbortedWritesTest {
    private static History read(String text) throws IOException {
        return new TextReader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "h.txt");
    }

    private static Verdict rc(History h) {
        return Checker.check(h, List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS).verdict();
    }

    @Test
    void abortedWritesAreAFailedTransactionNotTheInitialState() throws IOException {
        String text = "w(1,5,0,-1)\nr(1,9,0,-1)\nr(1,0,1,1)\nw(1,7,1,1)\nr(1,7,2,2)\n";
        History h = read(text);
        assertEquals(3, h.size());
        assertEquals(InitialState.allKeys(0L), h.initial(), "session 0's aborted write is not an initial transaction");
        assertEquals(Outcome.FAIL, h.outcome(2));
        assertEquals(0, h.process(2));
        assertEquals(1, h.line(2));
        assertEquals(List.of(new MicroOp.Write(1, 5)), h.txn(2).ops(), "the read marked -1 is skipped");
        assertEquals(Verdict.VALID, rc(h));
        assertEquals(Verdict.INVALID, rc(read(text.replace("r(1,7,2,2)", "r(1,5,2,2)"))), "reads an aborted write");
    }
}
