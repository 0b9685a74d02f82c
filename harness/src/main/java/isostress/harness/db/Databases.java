package isostress.harness.db;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The registry: every database isostress knows, one line each in
 * {@code META-INF/services/isostress.harness.db.Database}, in that file's order. Adding a database is one package
 * and one line there. The adapters are found through {@link ServiceLoader} (as Testcontainers finds its database
 * modules) rather than named here, because they build on this package: naming them would make {@code db} and every
 * {@code db.<database>} package depend on each other. Messages that list databases or provisions are built from
 * here, so they name what is registered.
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

    /** Every registered database, in the registry's order. */
    public static List<Database> all() {
        return ALL;
    }

    /** The names of the databases that are {@code kind}, in the registry's order. */
    public static List<String> names(Predicate<Database> kind) {
        return ALL.stream().filter(kind).map(Database::name).collect(Collectors.toList());
    }

    /** Every provision some database supports, in {@link Provision}'s order. */
    public static Set<Provision> provisions() {
        Set<Provision> all = EnumSet.noneOf(Provision.class);
        for (Database d : ALL) all.addAll(d.provisions());
        return all;
    }

    /** "a, b or c". */
    public static String either(List<String> names) {
        return join(names, "or");
    }

    /** "a, b and c" with {@code conjunction} "and". */
    private static String join(List<String> names, String conjunction) {
        if (names.size() <= 1) return String.join("", names);
        return String.join(", ", names.subList(0, names.size() - 1)) + " " + conjunction + " "
                + names.get(names.size() - 1);
    }

    /** The provisions' campaign names, in {@link Provision}'s order. */
    public static List<String> yamlNames(Set<Provision> provisions) {
        Set<Provision> ordered = EnumSet.noneOf(Provision.class);
        ordered.addAll(provisions);
        List<String> out = new ArrayList<>();
        for (Provision p : ordered) out.add(p.yamlName());
        return out;
    }

    /**
     * Why {@code d} cannot be obtained as {@code p}: "provision must be one of local, docker, external for mariadb;
     * embedded is PostgreSQL's".
     */
    static String provisionProblem(Database d, Provision p) {
        String s = "provision must be one of " + String.join(", ", yamlNames(d.provisions())) + " for " + d.name();
        List<String> whose = ALL.stream().filter(o -> o.provisions().contains(p)).map(o -> o.product() + "'s")
                .collect(Collectors.toList());
        return whose.isEmpty() ? s : s + "; " + p.yamlName() + " is " + join(whose, "and");
    }
}
