package isostress.harness.db.mariadb;

import isostress.harness.db.WitnessWrite;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static isostress.harness.db.mariadb.BinlogRows.Table.LISTS;
import static isostress.harness.db.mariadb.BinlogRows.Table.OTHER;
import static isostress.harness.db.mariadb.BinlogRows.Table.REGISTERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Row images of the workload's tables, as the binlog client gives them, read back as the history's writes. */
class BinlogRowsTest {
    private static Serializable[] row(long k, Serializable v) {
        return new Serializable[] {k, v};
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void tablesOfTheWorkloadAreKnownByName() {
        assertEquals(REGISTERS, BinlogRows.table("isostress_kv"));
        assertEquals(REGISTERS, BinlogRows.table("isostress_kv_3"));
        assertEquals(LISTS, BinlogRows.table("isostress_lists"));
        assertEquals(LISTS, BinlogRows.table("isostress_lists_0"));
        assertEquals(OTHER, BinlogRows.table("isostress_acct"));
        assertEquals(OTHER, BinlogRows.table("isostress_kv_x"));
    }

    @Test
    void aRegisterRowWritesItsNewValue() {
        assertEquals(WitnessWrite.write(3, 17), BinlogRows.write(REGISTERS, row(3, 0L), row(3, 17L)));
        assertEquals(WitnessWrite.write(-2, 5), BinlogRows.write(REGISTERS, null, row(-2, 5L)));
    }

    @Test
    void aListUpdateAppendsWhatItAddedToTheOldValue() {
        // CONCAT('', ',', 9): the first append to an initial empty list
        assertEquals(WitnessWrite.append(4, 9), BinlogRows.write(LISTS, row(4, text("")), row(4, text(",9"))));
        assertEquals(WitnessWrite.append(4, 12),
                BinlogRows.write(LISTS, row(4, text(",9")), row(4, text(",9,12"))));
        // an upsert's row, then its appends
        assertEquals(WitnessWrite.append(5, 7), BinlogRows.write(LISTS, null, row(5, text("7"))));
        assertEquals(WitnessWrite.append(5, 8), BinlogRows.write(LISTS, row(5, text("7")), row(5, text("7,8"))));
        assertEquals(WitnessWrite.append(5, 8), BinlogRows.write(LISTS, row(5, "7"), row(5, "7,8")));
    }

    @Test
    void anEmptyInsertedListIsNoWrite() {
        assertNull(BinlogRows.write(LISTS, null, row(1, text(""))));
    }

    @Test
    void aListChangeThatIsNotOneAppendIsRefusedWithASentence() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BinlogRows.write(LISTS, row(4, text(",9")), row(4, text(",8"))));
        assertTrue(e.getMessage().contains("list 4 changed from ',9' to ',8', which is not an append"), e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> BinlogRows.write(LISTS, row(4, text(",9")), row(4, text(",9,1,2"))));
        assertTrue(e.getMessage().contains("'1,2' appended, which is not one integer element"), e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> BinlogRows.write(LISTS, row(4, text("9")), row(4, text("91"))));
        assertTrue(e.getMessage().contains("not a comma and an element appended"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> BinlogRows.write(REGISTERS, null, row(4, null)));
        assertTrue(e.getMessage().contains("column v of the workload's table is null"), e.getMessage());
    }

    @Test
    void aDeletedRowIsADeleteOfItsKey() {
        assertEquals(WitnessWrite.delete(3), BinlogRows.delete(row(3, 17L)));
        assertEquals(WitnessWrite.delete(4), BinlogRows.delete(row(4, text(",9,12"))));
        assertEquals("[\"delete\",4]", BinlogRows.delete(row(4, text(""))).json());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BinlogRows.delete(new Serializable[] {"x", 1L}));
        assertTrue(e.getMessage().contains("column k"), e.getMessage());
    }

    @Test
    void positionsOrderFilesThenOffsets() {
        assertEquals(12, BinlogRows.fileIndex("mariadb-bin.000012"));
        long a = BinlogRows.pos(BinlogRows.fileIndex("mariadb-bin.000001"), 4_000_000_000L);
        long b = BinlogRows.pos(BinlogRows.fileIndex("mariadb-bin.000002"), 256);
        assertTrue(a < b);
        assertThrows(IllegalStateException.class, () -> BinlogRows.fileIndex("mariadb-bin"));
    }

    @Test
    void aLineIsTheWitnessFormat() {
        assertEquals("{\"pos\":17,\"node\":\"n1\",\"txid\":\"0-1-42\",\"writes\":[[\"w\",3,17],[\"append\",4,9]]}",
                WitnessWrite.line(17, "n1", "0-1-42",
                        List.of(WitnessWrite.write(3, 17), WitnessWrite.append(4, 9))));
    }
}
