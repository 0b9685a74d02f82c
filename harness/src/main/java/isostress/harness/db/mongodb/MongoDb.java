package isostress.harness.db.mongodb;

import isostress.harness.db.CannotConnectException;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.Credentials;
import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.provision.ExternalProvisioner;

import java.util.List;
import java.util.Set;

/**
 * MongoDB through its own synchronous driver ({@code org.mongodb:mongodb-driver-sync}, Apache-2.0): multi-document
 * transactions with error labels ({@link MongoOutcomes}). External by default (a replica set's URI), or a one-node
 * replica set in docker.
 */
public final class MongoDb implements Database {
    @Override
    public String name() {
        return "mongodb";
    }

    @Override
    public String product() {
        return "MongoDB";
    }

    @Override
    public Provision defaultProvision() {
        return Provision.EXTERNAL;
    }

    /** A server someone else runs (url: mongodb://...), or a one-node replica set in Docker. */
    @Override
    public Set<Provision> provisions() {
        return Set.of(Provision.DOCKER, Provision.EXTERNAL);
    }

    @Override
    public Provisioner provisioner(Provision p) {
        switch (p) {
            case DOCKER: return new DockerMongoDbProvisioner();
            case EXTERNAL: return new ExternalProvisioner();
            default: throw new IllegalArgumentException(provisionProblem(p));
        }
    }

    @Override
    public String urlProblem(String url) {
        return url.startsWith("mongodb://") || url.startsWith("mongodb+srv://") ? null
                : "must be a mongodb:// URI for type mongodb, was '" + url + "'";
    }

    /** Transactions run with read concern snapshot and write concern majority: MongoDB's one isolation. */
    @Override
    public String isolationProblem(Isolation i) {
        return i == Isolation.SNAPSHOT || i == Isolation.SERIALIZABLE ? null
                : "mongodb transactions run with read concern snapshot and write concern majority; use snapshot (or "
                + "serializable, which means the same there)";
    }

    @Override
    public int defaultPort() {
        return 27017;
    }

    /** The driver reads the URI's user part itself. */
    @Override
    public String[] externalUrl(String url) {
        return new String[] {url, null, null};
    }

    /**
     * Always snapshot read concern and majority writes: the loader admits only snapshot and serializable, and both
     * mean MongoDB's one transaction isolation (snapshot isolation).
     */
    @Override
    public ClientFactory clients(DatabaseSpec spec, Credentials login, List<String> urls,
                                 java.util.Map<String, String> nodeAt, int sessions)
            throws CannotConnectException {
        for (String url : urls) MongoClientFactory.check(url, login.user(), login.password(), spec.connectTimeout());
        return new MongoClientFactory(urls, login.user(), login.password(), spec.timeout());
    }
}
