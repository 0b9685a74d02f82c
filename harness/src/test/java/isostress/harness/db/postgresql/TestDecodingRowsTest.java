package isostress.harness.db.postgresql;

import isostress.harness.db.WitnessWrite;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** test_decoding's rows as PostgreSQL 16 prints them for the workload's tables, read back into witness writes. */
class TestDecodingRowsTest {
    private static String json(String row) {
        StringBuilder sb = new StringBuilder();
        for (WitnessWrite w : TestDecodingRows.writes(row)) sb.append(w.json());
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
                "table public.isostress_kv: DELETE: (no-tuple-data)"), "a delete without its key");
        assertThrows(IllegalStateException.class, () -> TestDecodingRows.writes(
                "table public.isostress_kv: TRUNCATE: (no-flags)"), "a truncate names no key");
    }

    @Test
    void deletedRowsAreDeletesOfTheirKey() {
        assertEquals("[\"delete\",4]", json("table public.isostress_kv: DELETE: k[bigint]:4"));
        assertEquals("[\"delete\",-4]", json("table public.isostress_kv_1: DELETE: k[bigint]:-4"));
        assertEquals("[\"delete\",5]", json("table public.isostress_lists: DELETE: k[bigint]:5"));
        assertEquals("[\"delete\",5]", json("table public.isostress_lists: DELETE: k[bigint]:5 v[text]:'2,5'"),
                "with REPLICA IDENTITY FULL the old row follows");
        assertEquals("", json("table public.acct: DELETE: id[bigint]:1"), "not the workload's table");
    }

    @Test
    void commitLsnIsOneIncreasingNumber() {
        assertEquals(0x16_B374D848L, TestDecodingRows.lsn("16/B374D848"));
        assertEquals(24321584L, TestDecodingRows.lsn("0/1731E30"));
        assertEquals("{\"pos\":5,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17],[\"append\",4,9],"
                + "[\"delete\",6]]}", WitnessWrite.line(5, "n1", "731", List.of(WitnessWrite.write(3, 17),
                        WitnessWrite.append(4, 9), WitnessWrite.delete(6))));
    }
}
