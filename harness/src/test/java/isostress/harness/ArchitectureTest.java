package isostress.harness;

import isostress.checker.Checker;
import isostress.generator.KeyDistribution;
import isostress.harness.cli.Main;
import isostress.harness.db.Database;
import isostress.harness.db.Databases;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the rules of docs/architecture.md that a compiler does not: the harness and the generator use only the
 * checker's small API ("histories in, results out"), no package cycle exists, and a database's code lives in its
 * package ({@link #databaseNamedTypesLiveInTheirDatabasesPackage}); and one naming rule: no two main classes share a
 * simple name, so a name says which class it is without its package.
 *
 * <p>Both read the compiled main classes of the three modules with {@code jdeps}, the JDK's dependency analyzer, run
 * in-process through {@link ToolProvider} (a second or two). Compiled classes rather than import lines, because a
 * class names checker types it never imports: fully qualified names, and the types of values it only passes along
 * ({@code r.levels().get(0).verdict()} depends on {@code LevelResult}).
 */
class ArchitectureTest {
    /**
     * The checker's API for the modules after it. A type outside this list that the harness or generator needs is a
     * design decision: give the checker an API-level entry (as {@code Checker.checkExact} is for the benchmarks'
     * exact search, {@code StreamingChecker} and {@code CompletedPrefix} for the check while running) rather than widening this list.
     */
    static final Set<String> API_PACKAGES = Set.of("isostress.checker.model");
    static final Set<String> API_TYPES = Set.of(
            // the front door: histories in, results out
            "isostress.checker.Checker", "isostress.checker.CheckInput", "isostress.checker.CompletedPrefix",
            "isostress.checker.StreamingChecker",
            // key-value histories: built by the harness and generator, read and written in every format
            "isostress.checker.history.History", "isostress.checker.history.Txn", "isostress.checker.history.MicroOp",
            "isostress.checker.history.Outcome", "isostress.checker.history.InitialState",
            "isostress.checker.history.SideEvent", "isostress.checker.history.HistoryFormat",
            "isostress.checker.history.InputException",
            // results rendered
            "isostress.checker.explain.ResultJson", "isostress.checker.explain.TextRenderer",
            "isostress.checker.explain.DotRenderer",
            // isostress-sql histories (docs/sql-history.md): recorded by the sql workload, read by check
            "isostress.checker.sql.SqlHistory", "isostress.checker.sql.SqlTxn", "isostress.checker.sql.SqlOp",
            "isostress.checker.sql.Predicate", "isostress.checker.sql.SqlHistoryReader",
            "isostress.checker.sql.SqlHistoryWriter",
            // the database's commit log (docs/witness.md): read, and joined with a history before it is checked
            "isostress.checker.witness.Witness", "isostress.checker.witness.WitnessReader",
            "isostress.checker.witness.WitnessJoin", "isostress.checker.witness.CommitLogNotes");

    /** {@code   from -> to   archive}, as jdeps -verbose prints a dependency. */
    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+\\S.*$");

    @Test
    void harnessAndGeneratorUseOnlyTheCheckersApi() throws Exception {
        Map<String, Set<String>> outside = new TreeMap<>();
        Set<String> used = new TreeSet<>();
        for (String[] e : jdeps("-verbose:class", classes(Main.class), classes(KeyDistribution.class))) {
            String from = topLevel(e[0]), to = topLevel(e[1]);
            if (!to.startsWith("isostress.checker.") || from.startsWith("isostress.checker.")) continue;
            used.add(to);
            if (!API_TYPES.contains(to) && !API_PACKAGES.contains(packageOf(to))) {
                outside.computeIfAbsent(to, k -> new TreeSet<>()).add(from);
            }
        }
        int checkerTypes = used.size();
        System.out.println("harness and generator main classes use " + checkerTypes + " checker types");
        assertTrue(outside.isEmpty(), "harness/generator main code uses checker types outside the API (see "
                + "ArchitectureTest.API_TYPES and docs/architecture.md): " + outside);
        assertTrue(checkerTypes > 10, "jdeps found almost no use of the checker, so this test checks nothing: "
                + used);
    }

    @Test
    void theApiListNamesPublicTypesThatExist() throws Exception {
        for (String name : API_TYPES) {
            Class<?> c = Class.forName(name, false, getClass().getClassLoader());
            assertTrue(Modifier.isPublic(c.getModifiers()), name + " is in the API list but not public");
        }
    }

    @Test
    void noPackageCycles() throws Exception {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String[] e : jdeps("-verbose:package", classes(Checker.class), classes(KeyDistribution.class),
                classes(Main.class))) {
            if (!e[0].startsWith("isostress.") || !e[1].startsWith("isostress.")) continue;
            graph.computeIfAbsent(e[0], k -> new TreeSet<>());
            graph.computeIfAbsent(e[1], k -> new TreeSet<>());
            if (!e[0].equals(e[1])) graph.get(e[0]).add(e[1]);
        }
        List<List<String>> cycles = new ArrayList<>();
        for (List<String> scc : Tarjan.components(graph)) if (scc.size() > 1) cycles.add(scc);
        System.out.println(graph.size() + " isostress packages, " + cycles.size() + " package cycles (strongly "
                + "connected components of jdeps -verbose:package)");
        assertTrue(graph.size() > 20, "jdeps found almost no packages, so this test checks nothing: " + graph.keySet());
        assertEquals(List.of(), cycles, "packages that import each other in a cycle (each list is one strongly "
                + "connected component)");
    }

    /**
     * Words that name a database beyond what the registry says (its name, product and class): its other names and
     * its parts (zonky's binaries, Galera, InnoDB).
     */
    static final Map<String, List<String>> ALSO_NAMED = Map.of(
            "postgresql", List.of("postgres", "pg", "zonky", "patroni", "etcd"),
            "mariadb", List.of("galera", "innodb"),
            "mongodb", List.of("mongo"));

    /**
     * A database owns its servers: a harness main class whose simple name names a database (HostPostgresNode,
     * GaleraCluster, DockerMongoDbProvisioner) is in that database's package or below it, so adding a database or a
     * way to start one touches that package and the registry, not {@code provision} or the loader. The names are
     * the registry's (each database's name, product and class, camel-case words lowercased) plus
     * {@link #ALSO_NAMED}.
     */
    @Test
    void databaseNamedTypesLiveInTheirDatabasesPackage() throws Exception {
        Map<String, List<String>> misplaced = new TreeMap<>();
        List<String> classes = new ArrayList<>();
        topLevelClasses(classes(Main.class)).values().forEach(classes::addAll);
        int named = 0;
        for (String c : classes) {
            String simple = c.substring(c.lastIndexOf('.') + 1);
            for (Database d : Databases.all()) {
                String home = d.getClass().getPackageName();
                if (!namesDatabase(simple, d)) continue;
                named++;
                if (!c.startsWith(home + ".")) misplaced.computeIfAbsent(c, k -> new ArrayList<>()).add(home);
            }
        }
        System.out.println(classes.size() + " harness main classes, " + named + " named after a database");
        assertTrue(named > 20, "almost no class names a database, so this test checks nothing");
        assertEquals(Map.of(), misplaced, "classes named after a database outside its package (class -> the "
                + "package it belongs in): move them there");
    }

    /** True when {@code simpleName}'s camel-case words name {@code d}. */
    static boolean namesDatabase(String simpleName, Database d) {
        String words = "." + String.join(".", camelWords(simpleName)) + ".";
        Set<String> names = new TreeSet<>(List.of(d.name(), d.product().toLowerCase(),
                d.getClass().getSimpleName().toLowerCase()));
        names.addAll(ALSO_NAMED.getOrDefault(d.name(), List.of()));
        String joined = words.replace(".", "");
        for (String n : names) {
            // Short names (pg) must be a whole word; longer ones may span words (Maria+Db, Postgre+Sql) or start one.
            if (n.length() <= 3 ? words.contains("." + n + ".") : joined.contains(n)) return true;
        }
        return false;
    }

    /** "HostPostgresNode" is host, postgres, node; "PgBinaries" is pg, binaries; "MySQLThing" is my, sql, thing. */
    static List<String> camelWords(String name) {
        List<String> out = new ArrayList<>();
        for (String w : name.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")) out.add(w.toLowerCase());
        return out;
    }

    @Test
    void theDatabaseNameRuleSeesWhatItShould() {
        Database pg = Databases.byName("postgresql"), maria = Databases.byName("mariadb");
        assertTrue(namesDatabase("HostPostgresNode", pg));
        assertTrue(namesDatabase("PgBinaries", pg));
        assertTrue(namesDatabase("ZonkyPostgresImage", pg));
        assertTrue(namesDatabase("PostgreSql", pg));
        assertTrue(namesDatabase("GaleraCluster", maria));
        assertTrue(namesDatabase("InnoDbDatabase", maria));
        assertFalse(namesDatabase("Upgrade", pg), "pg inside a word is not PostgreSQL");
        assertFalse(namesDatabase("DockerContainers", pg));
        assertFalse(namesDatabase("DockerContainers", maria));
    }

    @Test
    void noTwoMainClassesShareASimpleName() throws Exception {
        Map<String, Set<String>> byName = topLevelClasses(classes(Checker.class), classes(KeyDistribution.class),
                classes(Main.class));
        System.out.println(byName.size() + " top-level main classes in the checker, generator and harness");
        assertTrue(byName.size() > 100, "found almost no classes, so this test checks nothing: " + byName.keySet());
        assertEquals(Map.of(), twins(byName), "main classes that share a simple name (rename one so its name says "
                + "what it is)");
    }

    @Test
    void twinsAreFound() {
        Map<String, Set<String>> byName = new TreeMap<>();
        byName.put("Saturation", new TreeSet<>(Set.of("isostress.checker.general.Saturation",
                "isostress.checker.sql.Saturation")));
        byName.put("SqlChecker", new TreeSet<>(Set.of("isostress.checker.sql.SqlChecker")));
        assertEquals(Map.of("Saturation", Set.of("isostress.checker.general.Saturation",
                "isostress.checker.sql.Saturation")), twins(byName));
    }

    /** The names of {@code byName} that more than one class has. */
    private static Map<String, Set<String>> twins(Map<String, Set<String>> byName) {
        Map<String, Set<String>> twins = new TreeMap<>();
        byName.forEach((n, cs) -> {
            if (cs.size() > 1) twins.put(n, cs);
        });
        return twins;
    }

    /**
     * The top-level classes in {@code archives} (each a {@code target/classes} directory or a jar; nested and
     * anonymous classes excluded), by simple name.
     */
    private static Map<String, Set<String>> topLevelClasses(Path... archives) throws java.io.IOException {
        Map<String, Set<String>> byName = new TreeMap<>();
        for (Path archive : archives) {
            if (java.nio.file.Files.isDirectory(archive)) {
                collect(archive, byName);
            } else {
                try (java.nio.file.FileSystem jar = java.nio.file.FileSystems.newFileSystem(archive)) {
                    collect(jar.getPath("/"), byName);
                }
            }
        }
        return byName;
    }

    private static void collect(Path root, Map<String, Set<String>> byName) throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String file = f.getFileName() == null ? "" : f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$") || file.equals("module-info.class")
                        || file.equals("package-info.class")) continue;
                String simple = file.substring(0, file.length() - ".class".length());
                StringBuilder qualified = new StringBuilder();
                for (Path part : root.relativize(f)) qualified.append(qualified.length() == 0 ? "" : ".").append(part);
                byName.computeIfAbsent(simple, k -> new TreeSet<>())
                        .add(qualified.substring(0, qualified.length() - ".class".length()));
            }
        }
    }

    @Test
    void tarjanFindsTheCyclesItShould() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("a", Set.of("b"));
        g.put("b", Set.of("c", "d"));
        g.put("c", Set.of("a"));
        g.put("d", Set.of("e"));
        g.put("e", Set.of("d"));
        g.put("f", Set.of("a"));
        List<List<String>> sccs = Tarjan.components(g);
        assertTrue(sccs.contains(List.of("a", "b", "c")), sccs.toString());
        assertTrue(sccs.contains(List.of("d", "e")), sccs.toString());
        assertTrue(sccs.contains(List.of("f")), sccs.toString());
        assertEquals(3, sccs.size(), sccs.toString());
        assertFalse(Tarjan.components(Map.of("x", Set.of("y"), "y", Set.of())).stream().anyMatch(c -> c.size() > 1));
    }

    /** Tarjan's strongly connected components (SIAM J. Comput. 1972), iterative; each component sorted. */
    static final class Tarjan {
        private final Map<String, Set<String>> g;
        private final Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<List<String>> out = new ArrayList<>();
        private int next;

        private Tarjan(Map<String, Set<String>> g) {
            this.g = g;
        }

        static List<List<String>> components(Map<String, Set<String>> g) {
            Tarjan t = new Tarjan(g);
            for (String v : g.keySet()) if (!t.index.containsKey(v)) t.visit(v);
            return t.out;
        }

        private void visit(String root) {
            // Explicit stack of (vertex, its successors still to look at), so deep graphs do not overflow.
            Deque<Map.Entry<String, Iterator<String>>> work = new ArrayDeque<>();
            enter(root, work);
            while (!work.isEmpty()) {
                Map.Entry<String, Iterator<String>> top = work.peek();
                String v = top.getKey();
                if (top.getValue().hasNext()) {
                    String w = top.getValue().next();
                    if (!index.containsKey(w)) enter(w, work);
                    else if (onStack.contains(w)) low.put(v, Math.min(low.get(v), index.get(w)));
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = work.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    List<String> scc = new ArrayList<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        scc.add(w);
                    } while (!w.equals(v));
                    scc.sort(null);
                    out.add(scc);
                }
            }
        }

        private void enter(String v, Deque<Map.Entry<String, Iterator<String>>> work) {
            index.put(v, next);
            low.put(v, next++);
            stack.push(v);
            onStack.add(v);
            work.push(Map.entry(v, g.getOrDefault(v, Set.of()).iterator()));
        }
    }

    /** The dependencies jdeps reports, as (from, to) pairs of classes or packages. */
    private static List<String[]> jdeps(String verbose, Path... archives) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "no jdeps tool in this JVM: run the tests on a JDK 17 (module jdk.jdeps)"));
        List<String> args = new ArrayList<>(List.of(verbose, "-filter:none"));
        for (Path a : archives) args.add(a.toString());
        StringWriter out = new StringWriter(), err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        assertEquals(0, rc, "jdeps " + args + " failed: " + err);
        List<String[]> edges = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.matches()) edges.add(new String[] {m.group(1), m.group(2)});
        }
        return edges;
    }

    /** Where {@code c} was loaded from: a module's {@code target/classes} or its jar. */
    private static Path classes(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static String topLevel(String className) {
        int d = className.indexOf('$');
        return d < 0 ? className : className.substring(0, d);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }
}
