package isostress.harness.db.postgresql;

import com.github.dockerjava.api.exception.NotFoundException;
import isostress.harness.provision.DockerContainers;
import isostress.harness.provision.DockerEngine;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.images.builder.Transferable;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * PostgreSQL images of any version zonky publishes, built on this machine from the same binaries embedded PostgreSQL
 * runs ({@link ZonkyBundles}: the local Maven repository, else Maven Central), so {@code provision: docker} needs
 * no registry: {@code docker/postgres-zonky/Dockerfile} on the local Debian base {@value #BASE} (which
 * {@code .ci/docker-images} makes with debootstrap), with {@code docker/postgres}'s entrypoint. Both files travel in
 * isostress's jar.
 *
 * <p>Built once per version and tagged {@code isostress/postgres-zonky:<version>}; later runs find the tag and start
 * at once. The image carries a digest of the two files it was built from ({@value #RECIPE}), so an isostress whose
 * Dockerfile or entrypoint changed builds its images again rather than running stale ones.
 */
final class ZonkyPostgresImage {
    static final String BASE = "isostress/debian:bookworm";
    static final String REPOSITORY = "isostress/postgres-zonky";
    /** The label holding the digest of the Dockerfile and entrypoint an image was built from. */
    static final String RECIPE = "isostress.recipe";
    private static final String DOCKERFILE = "isostress/docker/postgres-zonky/Dockerfile";
    private static final String ENTRYPOINT = "isostress/docker/postgres/docker-entrypoint.sh";
    /** The versions zonky names (16.15, 12.3.0); others (16, 16-alpine) only the official image can have. */
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(\\.\\d+)?");

    private ZonkyPostgresImage() {
    }

    /** True when {@code version} is one zonky could publish, so its image can be built here. */
    static boolean buildable(String version) {
        return version != null && VERSION.matcher(version).matches();
    }

    static String tag(String version) {
        return REPOSITORY + ":" + ZonkyBundles.artifactVersion(version);
    }

    /**
     * The tag of {@code version}'s image, built first (on {@code base}) unless one from the same recipe is here.
     *
     * @param connectTimeout the longest connecting to Maven Central may take, should the binaries not be local
     */
    static synchronized String ensure(String version, String base, Duration connectTimeout)
            throws IOException, InterruptedException {
        String tag = tag(version);
        byte[] dockerfile = resource(DOCKERFILE), entrypoint = resource(ENTRYPOINT);
        String recipe = digest(dockerfile, entrypoint);
        if (recipe.equals(recipeOf(tag))) return tag;
        if (!DockerEngine.hasImage(base)) {
            throw new IOException("provision: docker builds PostgreSQL " + ZonkyBundles.artifactVersion(version)
                    + "'s image on the local Debian image " + base + ", which is not here: run .ci/docker-images "
                    + "(it makes it with debootstrap), or name an image with database.image");
        }
        long t0 = System.nanoTime();
        System.err.println("isostress: building " + tag + " from zonky's PostgreSQL binaries on " + base
                + " (once: later runs reuse it)");
        Path dir = Files.createTempDirectory("isostress-postgres-image");
        try {
            Path tar = dir.resolve("postgres.tar");
            // Docker's ADD unpacks a plain tar by itself, but an xz one only with an xz program on the Docker host.
            try (InputStream txz = ZonkyBundles.bundle(version, connectTimeout);
                 InputStream in = new XZCompressorInputStream(new BufferedInputStream(txz))) {
                Files.copy(in, tar);
            }
            new ImageFromDockerfile(tag, false)
                    .withFileFromTransferable("Dockerfile", Transferable.of(dockerfile))
                    .withFileFromTransferable("docker-entrypoint.sh", Transferable.of(entrypoint, 0755))
                    .withFileFromPath("postgres.tar", tar)
                    .withBuildArg("BASE", base)
                    .withBuildImageCmdModifier(cmd -> cmd.withLabels(Map.of(RECIPE, recipe)).withPull(false))
                    .get();
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null) cause = cause.getCause();
            throw new IOException("building " + tag + " on " + base + " failed: " + cause.getMessage(), e);
        } finally {
            Files.deleteIfExists(dir.resolve("postgres.tar"));
            Files.deleteIfExists(dir);
        }
        System.err.println("isostress: built " + tag + " in " + DockerContainers.seconds(t0) + " s");
        return tag;
    }

    /** The recipe label of the local image {@code tag}, or null when there is no such image. */
    private static String recipeOf(String tag) throws IOException {
        try {
            Map<String, String> labels = DockerEngine.client().inspectImageCmd(tag).exec().getConfig().getLabels();
            return labels == null ? null : labels.get(RECIPE);
        } catch (NotFoundException e) {
            return null;
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ZonkyPostgresImage.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IOException("isostress's jar lacks " + name + " (rebuild it with mvn package)");
            return in.readAllBytes();
        }
    }

    private static String digest(byte[]... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                sha.update(Integer.toString(p.length).getBytes(StandardCharsets.US_ASCII));
                sha.update(p);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
