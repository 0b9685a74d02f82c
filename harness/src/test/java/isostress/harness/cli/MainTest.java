package isostress.harness.cli;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import picocli.CommandLine;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 13 item 7: {@code --help} and {@code --version} on every command of the tree. */
class MainTest {
    @Test
    void helpWorksOnEveryCommand() {
        List<List<String>> paths = commands();
        assertTrue(paths.size() > 10, "the walk found " + paths);
        assertTrue(paths.contains(List.of("bench", "pgbench")) && paths.contains(List.of("bench", "aborts")), paths.toString());
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CheckCommandTest.Run r = CheckCommandTest.run(args.toArray(String[]::new));
            assertEquals(0, r.code(), args + ": " + r.out() + r.err());
            assertTrue(r.out().contains("Usage: isostress " + String.join(" ", path)), args + ": " + r.out());
            assertEquals("", r.err(), args.toString());
        }
    }

    @Test
    void versionIsThePomVersionOnEveryCommand() throws Exception {
        // The module pom inherits its version from the parent's <version>.
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        String version = XPathFactory.newInstance().newXPath().evaluate("/project/parent/version", pom);
        assertFalse(version.isBlank());
        for (List<String> path : commands()) {
            if (path.equals(List.of("help"))) continue; // picocli's help command has no --version: it reads a COMMAND
            List<String> args = new ArrayList<>(path);
            args.add("--version");
            CheckCommandTest.Run r = CheckCommandTest.run(args.toArray(String[]::new));
            assertEquals(0, r.code(), args + ": " + r.err());
            assertEquals("isostress " + version, r.out().strip(), args.toString());
            assertFalse(r.out().contains("dev"), r.out());
        }
    }

    /** Every command as the words that name it, the root first. */
    private static List<List<String>> commands() {
        List<List<String>> out = new ArrayList<>();
        out.add(List.of());
        walk(Main.commandLine(), new ArrayList<>(), out);
        return out;
    }

    private static void walk(CommandLine cl, List<String> path, List<List<String>> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(p);
            walk(e.getValue(), p, out);
        }
    }
}
