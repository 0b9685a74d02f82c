package isostress.harness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LevelTableTest {
    @Test
    void shortNamesKeepTheTwentyWideColumn() {
        String out = new LevelTable().add("serializable", "invalid", "1 dependency cycle")
                .add("strict-serializable", "valid", "none").render("  ");
        assertEquals("  serializable         invalid  1 dependency cycle\n"
                + "  strict-serializable  valid    none\n", out.replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aLongerNameWidensTheColumnForEveryRow() {
        String out = new LevelTable().add("parallel-snapshot-isolation", "valid", "a")
                .add("serializable", "invalid", "b").render("    ");
        String[] lines = out.split("\\R");
        assertEquals("    parallel-snapshot-isolation valid    a", lines[0]);
        assertEquals("    serializable                invalid  b", lines[1]);
        assertEquals(lines[0].indexOf("valid"), lines[1].indexOf("invalid"));
    }
}
