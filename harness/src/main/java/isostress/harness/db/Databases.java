package isostress.harness.db;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The registry: every database isostress knows, one line each in
 * {@code META-INF/services/isostress.harness.db.Database}, in that file's order. Adding a database is one package
 * and one line there. The adapters are found through {@link ServiceLoader} (as Testcontainers finds its database
 * modules) rather than named here, because they build on this package: naming them would make {@code db} and every
 * {@code db.<database>} package depend on each other.
 */
public final class Databases {
    private static final List<Database> ALL = ServiceLoader.load(Database.class, Database.class.getClassLoader())
            .stream().map(ServiceLoader.Provider::get).collect(Collectors.toUnmodifiableList());

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
