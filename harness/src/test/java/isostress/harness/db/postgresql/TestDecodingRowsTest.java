package isostress.harness.db.postgresql;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** test_decoding's rows as PostgreSQL 16 prints them for the workload's tables, read back into witness writes. */
class TestDecodingRowsTest {
    private static String json(String row) {
        StringBuilder sb = new StringBuilder();
        for (TestDecodingRows.Write w : TestDecodingRows.writes(row)) sb.append(w.json());
        return sb.toString();
    }

    @Test
    void registerRowsAreTheValueWritten() {
        assertEquals("[\"w\",3,17]", json("table public.isostress_kv: UPDATE: k[bigint]:3 v[bigint]:17"));
        assertEquals("[\"w\",-4,9]", json("table public.isostress_kv_2: INSERT: k[bigint]:-4 v[bigint]:9"));
    }

    @Test
    void listRowsAreTheLastElementOfTheNewValue() {
        assertEquals("[\"append\",4,9]", json("table public.isostress_lists: UPDATE: k[bigint]:4 v[text]:'2,5,9'"));
        assertEquals("[\"append\",4,9]", json("table public.isostress_lists_1: INSERT: k[bigint]:4 v[text]:'9'"));
        assertEquals("[\"append\",4,7]", json("table public.isostress_lists: UPDATE: k[bigint]:4 v[text]:',7'"));
        assertEquals("", json("table public.isostress_lists: INSERT: k[bigint]:4 v[text]:''"), "the initial row");
    }

    @Test
    void otherTablesAreSkippedAndUnreadableWorkloadRowsRefused() {
        assertEquals("", json("table public.acct: UPDATE: id[bigint]:1 bal[bigint]:5"));
        assertEquals("", json("BEGIN 731"));
        assertThrows(IllegalStateException.class, () -> TestDecodingRows.writes(
                "table public.isostress_lists: UPDATE: k[bigint]:4 v[text]:unchanged-toast-datum"));
        assertThrows(IllegalStateException.class, () -> TestDecodingRows.writes(
                "table public.isostress_kv: DELETE: k[bigint]:4"));
    }

    @Test
    void commitLsnIsOneIncreasingNumber() {
        assertEquals(0x16_B374D848L, TestDecodingRows.lsn("16/B374D848"));
        assertEquals(24321584L, TestDecodingRows.lsn("0/1731E30"));
        assertEquals("{\"pos\":5,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17],[\"append\",4,9]]}",
                TestDecodingRows.line(5, "n1", "731", List.of(new TestDecodingRows.Write(false, 3, 17),
                        new TestDecodingRows.Write(true, 4, 9))));
    }
}
