package isostress.harness.hermitage;

import isostress.harness.Services;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Hermitage scripts on real PostgreSQL 16 and MariaDB 10.11 give the published table: the rows of
 * the project's FIELD notes ("Isolation in the databases we run"), kept in the test resource hermitage/published.md.
 */
class HermitageTableTest {
    static final Path FIELD = Path.of("src/test/resources/hermitage/published.md");

    @TempDir
    Path logs;

    /** The published rows for {@code database} (as named in its first column): level -> the ten marks. */
    static Map<String, List<String>> published(String database) throws Exception {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(FIELD)) {
            if (!line.startsWith("| " + database + " |")) continue;
            String[] cells = line.split("\\|");
            List<String> marks = new ArrayList<>();
            for (int i = 3; i < cells.length; i++) marks.add(cells[i].trim());
            String level = cells[2].trim().replaceAll(" \\(.*\\)", "");
            rows.put(level, marks);
        }
        return rows;
    }

    private Map<String, List<String>> measured(String yaml) throws Exception {
        Campaign c = CampaignLoader.parse(Path.of("hermitage.yaml"), yaml);
        try (RunningDatabase db = Provisioner.of(c.database()).start(c.database(), logs, 4)) {
            List<String> detail = new ArrayList<>();
            Map<Isolation, Map<String, String>> t = HermitageTable.run(
                    new HermitageRunner((JdbcDatabase) c.database().type(), db.jdbcUrl(), db.user(), db.password()), detail);
            detail.forEach(System.out::println);
            Map<String, List<String>> out = new LinkedHashMap<>();
            t.forEach((level, row) -> out.put(level.yamlName().replace('-', ' '), new ArrayList<>(row.values())));
            return out;
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void postgresqlMatchesThePublishedTable() throws Exception {
        Map<String, List<String>> expected = published("PostgreSQL");
        assertEquals(3, expected.size(), "published rows: " + expected);
        assertEquals(expected, measured("database: {type: postgresql}\n"));
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void mariadbMatchesThePublishedTable() throws Exception {
        Services.requireLocalMariaDb();
        Map<String, List<String>> expected = published("MySQL/MariaDB InnoDB");
        assertEquals(3, expected.size(), "published rows: " + expected);
        assertTrue(expected.get("repeatable read").contains("R/O"));
        assertEquals(expected, measured("database: {type: mariadb, provision: local}\n"));
    }

    /** type: mysql speaks MySQL Connector/J to the local MariaDB server: the same InnoDB, the same table. */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void mysqlConnectorMatchesThePublishedTable() throws Exception {
        Services.requireLocalMariaDb();
        Map<String, List<String>> expected = published("MySQL/MariaDB InnoDB");
        assertEquals(3, expected.size(), "published rows: " + expected);
        assertEquals(expected, measured("database: {type: mysql, provision: local}\n"));
    }
}
