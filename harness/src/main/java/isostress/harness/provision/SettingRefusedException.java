package isostress.harness.provision;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The database server did not start because of one of the campaign's {@code database.settings}, in its own words:
 * PostgreSQL logs {@code FATAL:  unrecognized configuration parameter "bogus_setting"}, mariadbd
 * {@code [ERROR] /usr/sbin/mariadbd: unknown variable 'bogus_setting=1'}. The server checks the names and values, so
 * isostress keeps no list of them; it only finds which setting the server's line names.
 */
public final class SettingRefusedException extends IOException {
    private final String server;
    private final String setting;
    private final String serverLine;

    SettingRefusedException(String server, String setting, String serverLine) {
        super(server + " refused setting " + setting + ": " + serverLine);
        this.server = server;
        this.setting = setting;
        this.serverLine = serverLine;
    }

    /** The key under {@code database.settings} the server refused. */
    public String setting() {
        return setting;
    }

    /** The server's own line, without its timestamp. */
    public String serverLine() {
        return serverLine;
    }

    /** The campaign key the server refused: {@code database.settings.<setting>}. */
    public String keyPath() {
        return "database.settings." + setting;
    }

    /**
     * One sentence with file, line and key path: {@code camp.yaml:4 database.settings.x: ... refused it: ...}.
     * The caller finds {@code where} (the campaign's loader knows the file's lines; provisioners sit below it).
     *
     * @param where {@code file:line keyPath} of {@link #keyPath()}
     */
    public String located(String where) {
        return where + ": " + server + " refused it: " + serverLine;
    }

    /**
     * The first of the server's error lines that names one of {@code settings} (as {@code "name"}, {@code 'name'}
     * or {@code 'name=value'}; MariaDB treats - and _ alike), or null when none does.
     */
    public static SettingRefusedException find(String server, List<String> errorLines, Collection<String> settings) {
        for (String line : errorLines) {
            String l = line.toLowerCase(Locale.ROOT).replace('-', '_');
            for (String s : settings) {
                String k = s.toLowerCase(Locale.ROOT).replace('-', '_');
                if (l.contains("\"" + k + "\"") || l.contains("'" + k + "'") || l.contains("'" + k + "=")) {
                    return new SettingRefusedException(server, s, line);
                }
            }
        }
        return null;
    }
}
