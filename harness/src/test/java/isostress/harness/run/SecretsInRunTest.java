package isostress.harness.run;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A password planted in a campaign never reaches stdout, stderr or any file of the run directory
 * (campaign.yaml, logs/, results.json, report.html, ...), whether it comes in the URL's user part, as
 * {@code ?password=}, through {@code password-env} or as a secret-looking setting, and whether the run succeeds
 * or fails on it. Each run is a real {@code isostress run} in its own JVM (so that {@code password-env} can be
 * set, and every byte the process prints is captured) against an embedded PostgreSQL whose user has the password.
 */
class SecretsInRunTest {
    static final String PLANTED = "PLANTED-S3CRET", TOKEN = "PLANTED-T0KEN";

    @TempDir
    static Path dir;
    static PasswordPostgres pg;

    @BeforeAll
    static void startPostgres() throws Exception {
        pg = new PasswordPostgres(dir, PLANTED);
    }

    @AfterAll
    static void stopPostgres() {
        if (pg != null) pg.close();
    }

    record Exit(int code, String out, String err, Path store) {
    }

    /** Runs {@code isostress run} on a campaign with this database section, in a JVM with {@code env} added. */
    static Exit run(String name, String database, Map<String, String> env) throws Exception {
        Path store = dir.resolve("store-" + name);
        Path yaml = dir.resolve(name + ".yaml");
        Files.writeString(yaml, "name: " + name + "\ndatabase: " + database + "\n"
                + "workload: {type: mini, sessions: 2, transactions: 100, keys: 5}\nstore: " + store + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "isostress.harness.cli.Main", "run", yaml.toString(), "--no-progress")
                .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile());
        pb.environment().putAll(env);
        int code = pb.start().waitFor();
        Exit e = new Exit(code, Files.readString(dir.resolve(name + ".out")),
                Files.readString(dir.resolve(name + ".err")), store);
        System.out.println("[" + name + "] exit " + code + "\n" + e.out() + e.err());
        return e;
    }

    /** Every place {@code secret} shows up: the streams, then files of the store by path. */
    static List<String> leaks(Exit e, String secret) throws IOException {
        List<String> hits = new ArrayList<>();
        if (e.out().contains(secret)) hits.add("stdout");
        if (e.err().contains(secret)) hits.add("stderr");
        try (Stream<Path> files = Files.walk(e.store())) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                if (text.contains(secret)) hits.add(e.store().relativize(f).toString());
            }
        }
        return hits;
    }

    /** The run directory holds what the issue names, so the search above looked where the leaks were. */
    static void assertRunDirectoryComplete(Exit e) throws IOException {
        Path run = e.store().resolve("latest");
        for (String f : List.of("campaign.yaml", "results.json", "report.html", "logs/harness.log")) {
            assertTrue(Files.exists(run.resolve(f)), f + " missing in " + run.toRealPath());
        }
    }

    static String url(String userInfo, String params) {
        return "\"jdbc:postgresql://" + userInfo + "127.0.0.1:" + pg.port() + "/" + PasswordPostgres.DATABASE + params
                + "\"";
    }

    @Test
    void passwordInTheUrlsUserPart() throws Exception {
        Exit e = run("userinfo", "{type: postgresql, provision: external, url: " + url("isouser:" + PLANTED + "@", "")
                + ", settings: {api_token: " + TOKEN + "}}", Map.of());
        assertEquals(0, e.code(), e.out() + e.err());
        assertRunDirectoryComplete(e);
        assertEquals(List.of(), leaks(e, PLANTED));
        assertEquals(List.of(), leaks(e, TOKEN));
        assertTrue(Files.readString(e.store().resolve("latest/campaign.yaml")).contains("isouser:***@"));
    }

    @Test
    void passwordParameter() throws Exception {
        Exit e = run("parameter", "{type: postgresql, provision: external, url: "
                + url("", "?user=isouser&password=" + PLANTED) + "}", Map.of());
        assertEquals(0, e.code(), e.out() + e.err());
        assertRunDirectoryComplete(e);
        assertEquals(List.of(), leaks(e, PLANTED));
    }

    @Test
    void passwordEnv() throws Exception {
        Exit e = run("env", "{type: postgresql, provision: external, url: " + url("", "?user=isouser")
                + ", password-env: ISO_PLANTED_PW}", Map.of("ISO_PLANTED_PW", PLANTED));
        assertEquals(0, e.code(), e.out() + e.err());
        assertRunDirectoryComplete(e);
        assertEquals(List.of(), leaks(e, PLANTED));
    }

    @Test
    void wrongPasswordsAreNotEchoedEither() throws Exception {
        Exit inUrl = run("wrong-url", "{type: postgresql, provision: external, url: "
                + url("isouser:WRONG-PLANTED-1@", "") + "}", Map.of());
        assertEquals(2, inUrl.code(), inUrl.out() + inUrl.err());
        assertRunDirectoryComplete(inUrl);
        assertEquals(List.of(), leaks(inUrl, "WRONG-PLANTED-1"));
        Exit inEnv = run("wrong-env", "{type: postgresql, provision: external, url: " + url("", "?user=isouser")
                + ", password-env: ISO_PLANTED_PW}", Map.of("ISO_PLANTED_PW", "WRONG-PLANTED-2"));
        assertEquals(2, inEnv.code(), inEnv.out() + inEnv.err());
        assertEquals(List.of(), leaks(inEnv, "WRONG-PLANTED-2"));
    }

    /** A setting handed to the server PostgreSQL started by isostress (a custom, dotted parameter). */
    @Test
    void secretSettingOfAnEmbeddedServer() throws Exception {
        Exit e = run("setting", "{type: postgresql, provision: embedded, settings: {isostress.api_token: " + TOKEN
                + "}}", Map.of());
        assertEquals(0, e.code(), e.out() + e.err());
        assertRunDirectoryComplete(e);
        assertEquals(List.of(), leaks(e, TOKEN));
    }
}
