package isostress.harness.config;

import isostress.checker.history.InputException;

import java.util.List;

/** A campaign that cannot run: every problem found, each naming file, line and key path. Exit status 2. */
public final class ConfigException extends InputException {
    private final List<String> problems;

    public ConfigException(String file, List<String> problems) {
        super(null, 0, (problems.size() == 1 ? "" : problems.size() + " problems in " + file + ":\n  ")
                + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
