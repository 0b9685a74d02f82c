package isostress.harness;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README stays short enough to read in five minutes, and every relative link in it and in docs/ leads to a file
 * that exists (a moved or renamed doc breaks no link silently).
 */
class DocsLinkTest {
    private static final Path ROOT = Path.of("..");
    static final int README_MAX_LINES = 300;
    /** A markdown link or image: {@code [text](target)}; the target ends at the first space or closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    @Test
    void readmeIsAtMost300Lines() throws IOException {
        long lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines <= README_MAX_LINES, "README.md has " + lines + " lines; at most " + README_MAX_LINES
                + ": move details to docs/ and link them");
    }

    @Test
    void everyRelativeLinkInTheReadmeAndDocsResolves() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path f : files) {
            List<String> text = Files.readAllLines(f);
            for (int i = 0; i < text.size(); i++) {
                for (String link : relativeLinks(text.get(i))) {
                    links++;
                    int hash = link.indexOf('#');
                    String target = hash >= 0 ? link.substring(0, hash) : link;
                    Path to = target.isEmpty() ? f : f.getParent().resolve(target);
                    if (!Files.exists(to)) {
                        broken.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + link);
                    } else if (hash >= 0 && to.toString().endsWith(".md")
                            && !anchors(to).contains(link.substring(hash + 1))) {
                        broken.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + link + " (no such heading)");
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links to files or headings that do not exist");
        assertTrue(links >= 20, "only " + links + " relative links found: is the pattern still right?");
    }

    @Test
    void linksAndHeadingsAreReadAsGitHubDoes() {
        assertEquals(List.of("docs/nowhere.md#part", "#anchor", "b.md"), relativeLinks(
                "see [x](docs/nowhere.md#part), [y](https://example.org/a.md), [z](#anchor), ![b](b.md \"title\")"));
        assertEquals("checking-while-running-repetition", slug("Checking while running, repetition"));
        assertEquals("the-sql-workload", slug("The `sql` workload"));
    }

    /** The relative links of a line, with their {@code #anchor}; web and mail links are skipped. */
    static List<String> relativeLinks(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = LINK.matcher(line);
        while (m.find()) {
            String t = m.group(1);
            if (!t.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) out.add(t);
        }
        return out;
    }

    /** The anchors GitHub gives a markdown file's headings. */
    static Set<String> anchors(Path md) throws IOException {
        Set<String> out = new HashSet<>();
        boolean fence = false;
        for (String line : Files.readAllLines(md)) {
            if (line.startsWith("```")) fence = !fence;
            if (!fence && line.startsWith("#")) out.add(slug(line.replaceFirst("^#+\\s*", "")));
        }
        return out;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
