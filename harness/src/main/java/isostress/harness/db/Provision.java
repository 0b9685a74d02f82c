package isostress.harness.db;

import java.util.Locale;

/** How the database is obtained; which of these a database supports, it says itself ({@link Database#provisions()}). */
public enum Provision {
    /** A server isostress starts from binaries it brings (PostgreSQL: zonky's, any version). */
    EMBEDDED,
    /** A server isostress starts from what is installed on this machine. */
    LOCAL,
    /**
     * A PostgreSQL cluster isostress starts from installed binaries under Patroni, the failover manager, with an etcd
     * for its consensus: the members elect the primary and clients follow it.
     */
    PATRONI,
    /** Servers isostress starts in containers. */
    DOCKER,
    /** A database someone else runs, reached by its URL. */
    EXTERNAL;

    /** True when a failover manager elects the primary (the role faults, such as crash-primary, need one). */
    public boolean failoverManager() {
        return this == PATRONI;
    }

    /** The name campaigns use ({@code provision: docker}). */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
