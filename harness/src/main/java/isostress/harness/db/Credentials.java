package isostress.harness.db;

/**
 * Who the clients log in as. A started database ({@link RunningDatabase}) is one; the clients take only
 * this, so the database adapters need nothing from the provisioners that start the servers.
 */
public interface Credentials {
    /** The user, or null for the driver's default. */
    String user();

    /** The password, or null for none. */
    String password();
}
