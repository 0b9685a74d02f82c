package isostress.harness.db.postgresql;

import com.github.dockerjava.api.command.InspectImageResponse;
import isostress.harness.Services;
import isostress.harness.provision.DockerEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Images built here from zonky's binaries: which versions qualify, what a missing base says, and that an
 * image is built once, runs as postgres and is reused. That the server in it serves a whole campaign is
 * KnownBugsTest's (the 12.3 bug in Docker).
 */
class ZonkyPostgresImageTest {
    private static final Duration CONNECT = Duration.ofSeconds(10);

    private static void requireBase() {
        Services.require(DockerEngine.available() && DockerEngine.hasImage(ZonkyPostgresImage.BASE),
                "Docker with the local Debian base image (" + ZonkyPostgresImage.BASE + ")",
                "apt-get install docker.io, start dockerd and run .ci/docker-images");
    }

    @Test
    void versionsZonkyCouldPublishAreBuildableOthersAreNot() {
        for (String v : new String[] {"12.3", "12.3.0", "16.15", "17.11.0"}) {
            assertTrue(ZonkyPostgresImage.buildable(v), v);
        }
        for (String v : new String[] {"16", "16-alpine", "latest", "", "1.2.3.4"}) {
            assertFalse(ZonkyPostgresImage.buildable(v), v);
        }
        assertFalse(ZonkyPostgresImage.buildable(null));
        assertEquals("isostress/postgres-zonky:12.3.0", ZonkyPostgresImage.tag("12.3"));
        assertEquals("isostress/postgres-zonky:17.11.0", ZonkyPostgresImage.tag("17.11.0"));
    }

    @Test
    @Timeout(60)
    void withoutTheBaseImageOneSentenceSaysToRunCiDockerImages() {
        Services.require(DockerEngine.available(), "a Docker engine", "apt-get install docker.io and start dockerd");
        // A version no image of which exists here, on a base no one has: the base is looked for before anything else.
        IOException e = assertThrows(IOException.class,
                () -> ZonkyPostgresImage.ensure("9.99.99", "isostress/debian:no-such-base", CONNECT));
        assertEquals("provision: docker builds PostgreSQL 9.99.99's image on the local Debian image "
                + "isostress/debian:no-such-base, which is not here: run .ci/docker-images (it makes it with "
                + "debootstrap), or name an image with database.image", e.getMessage());
    }

    @Test
    @Timeout(300)
    void theBundledVersionIsBuiltOnceRunsAsPostgresAndIsReused() throws Exception {
        requireBase();
        String version = ZonkyBundles.bundledVersion();
        String tag = ZonkyPostgresImage.ensure(version, ZonkyPostgresImage.BASE, CONNECT);
        assertEquals(ZonkyPostgresImage.tag(version), tag);
        InspectImageResponse first = DockerEngine.client().inspectImageCmd(tag).exec();
        assertNotNull(first.getConfig());
        assertEquals("postgres", first.getConfig().getUser(), "PostgreSQL refuses root: the image runs as postgres");
        assertNotNull(first.getConfig().getLabels().get(ZonkyPostgresImage.RECIPE), "the recipe it was built from");
        assertEquals(tag, ZonkyPostgresImage.ensure(version, ZonkyPostgresImage.BASE, CONNECT));
        assertEquals(first.getId(), DockerEngine.client().inspectImageCmd(tag).exec().getId(),
                "the second call found the image and built nothing");
    }
}
