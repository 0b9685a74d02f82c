package isostress.harness;

import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Tests that need a system service look for it first. Missing, they are skipped with a message naming what to
 * install, unless ISOSTRESS_REQUIRE_ALL=1 (CI), where a missing service fails the test.
 */
public final class Services {
    private Services() {
    }

    public static void require(boolean available, String what, String install) {
        if (available) return;
        String msg = what + " is not available here: " + install;
        if ("1".equals(System.getenv("ISOSTRESS_REQUIRE_ALL"))) fail(msg + " (ISOSTRESS_REQUIRE_ALL=1)");
        Assumptions.assumeTrue(false, msg);
    }

    /** A local MariaDB server (Debian's mariadbd), for the campaigns with {@code provision: local}. */
    public static void requireLocalMariaDb() {
        require(isostress.harness.db.mariadb.LocalMariaDbProvisioner.available(), "a local MariaDB server (mariadbd)",
                "apt-get install -y mariadb-server");
    }
}
