package isostress.harness.db;

import isostress.harness.db.mariadb.MariaDb;
import isostress.harness.db.mongodb.MongoDb;
import isostress.harness.db.mysql.MySql;
import isostress.harness.db.postgresql.PostgreSql;

import java.util.List;
import java.util.stream.Collectors;

/** The registry: every database isostress knows. Adding a database is one package and one line here. */
public final class Databases {
    private static final List<Database> ALL = List.of(
            new PostgreSql(),
            new MariaDb(),
            new MySql(),
            new MongoDb());

    private Databases() {
    }

    /** The database campaigns call {@code name}, or null. */
    public static Database byName(String name) {
        for (Database d : ALL) if (d.name().equals(name)) return d;
        return null;
    }

    /** The names campaigns may write, in the registry's order. */
    public static List<String> names() {
        return ALL.stream().map(Database::name).collect(Collectors.toList());
    }
}
