package isostress.harness.cli;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import picocli.CommandLine;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --help} and {@code --version} on every command of the tree. */
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

    /**
     * The command line {@code main} builds for {@code isostress NAME ...} holds NAME's command alone, and that
     * command is the whole tree's: same usage, hence same options and subcommands. A command missing from the
     * switch would silently cost the start-up of the whole tree; one mapped to the wrong class would run it.
     */
    @Test
    void eachCommandAloneIsTheWholeTreesCommand() {
        CommandLine whole = Main.commandLine();
        int named = 0;
        for (var e : whole.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) continue;
            CommandLine alone = Main.commandLine(new String[] {e.getKey(), "--help"});
            assertEquals(List.of(e.getKey(), "help"), List.copyOf(alone.getSubcommands().keySet()), e.getKey());
            assertEquals(e.getValue().getUsageMessage(), alone.getSubcommands().get(e.getKey()).getUsageMessage(),
                    e.getKey());
            named++;
        }
        assertTrue(named >= 7, "subcommands: " + whole.getSubcommands().keySet());
        for (String other : List.of("--help", "help", "chek", "--version")) {
            assertEquals(whole.getSubcommands().keySet(),
                    Main.commandLine(new String[] {other}).getSubcommands().keySet(), other);
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

    @Test
    void everyExitStatusListHasTheCodesMainReturns() throws Exception {
        List<String> codes = List.of("0", "1", "2", "3", String.valueOf(Main.INTERNAL));
        assertEquals(List.of(Main.VALID, Main.INVALID, Main.BAD_INPUT, Main.UNKNOWN, Main.INTERNAL),
                codes.stream().map(Integer::valueOf).toList());
        int lists = 0;
        for (List<String> path : commands()) {
            CommandLine cl = Main.commandLine();
            for (String word : path) cl = cl.getSubcommands().get(word);
            var listed = cl.getCommandSpec().usageMessage().exitCodeList();
            if (listed.isEmpty()) continue;
            lists++;
            // A run can also be interrupted (Ctrl-C): it alone lists 130.
            List<String> expected = new ArrayList<>(codes);
            if (path.equals(List.of("run"))) expected.add(String.valueOf(isostress.harness.run.RunOutcome.INTERRUPTED));
            assertEquals(expected, listed.keySet().stream().map(String::strip).toList(), path.toString());
        }
        assertTrue(lists >= 3, "isostress, run and check list their exit statuses");
        // The README and docs/ list the exit statuses ("Exit status: 0 ..., 1 ...") where they describe run, check
        // and SQL histories: each list, up to the end of its paragraph or list item, names every code. (A sentence
        // that names one status, "with exit status 2.", is not a list.)
        List<Path> texts = new ArrayList<>(List.of(Path.of("../README.md")));
        try (var docs = Files.list(Path.of("../docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(texts::add);
        }
        int statements = 0;
        boolean interrupted = false;
        for (Path text : texts) {
            String doc = Files.readString(text);
            Matcher m = Pattern.compile("(?is)exit status[^:.]{0,40}:(.*?)(?:\\n\\n|\\n- |$)").matcher(doc);
            while (m.find()) {
                for (String c : codes) {
                    assertTrue(Pattern.compile("\\b" + c + " ").matcher(m.group(1)).find(),
                            text.getFileName() + ": no " + c + " in: " + m.group());
                }
                statements++;
            }
            interrupted |= doc.contains("130 interrupted");
        }
        assertTrue(statements >= 3, "README and docs exit status statements: " + statements);
        assertTrue(interrupted, "README or docs: the run's exit status 130 (Ctrl-C)");
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
