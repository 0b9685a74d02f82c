package isostress.harness.db;

import isostress.harness.config.Campaign;
import isostress.harness.db.mongo.MongoClientFactory;
import isostress.harness.provision.RunningDatabase;

import java.io.IOException;
import java.util.List;

/** The client library for a campaign's database type. */
public final class ClientFactories {
    private ClientFactories() {
    }

    /**
     * Clients for {@code db}, one per session, reaching node i at {@code urls.get(i)} (the node's own URL, or a
     * fault proxy in front of it). SQL databases are first connected to once per node, so that a wrong password,
     * a missing database or a closed port stops the run within the connect timeout and with the driver's reason
     * ({@link ConnectionCheck}), before a pool's retries hide it.
     *
     * @throws CannotConnectException a node cannot be reached or refuses the harness
     */
    public static ClientFactory of(Campaign.Database spec, RunningDatabase db, List<String> urls, int sessions)
            throws IOException, InterruptedException {
        if (spec.type() != Campaign.DbType.MONGODB) {
            for (String url : urls) {
                ConnectionCheck.require(spec.type(), url, db.user(), db.password(), spec.connectTimeout());
            }
        }
        switch (spec.type()) {
            case POSTGRESQL:
                return new JdbcClientFactory(db, urls, new PostgresAdapter(spec.upsert(), spec.opPause(), spec.tables()), spec.isolation(), sessions, spec.timeout());
            case MARIADB:
            case MYSQL:
                return new JdbcClientFactory(db, urls, new MariaDbAdapter(spec.upsert(), spec.opPause(), spec.tables()), spec.isolation(), sessions, spec.timeout());
            case MONGODB:
                // Always snapshot read concern + majority writes: the loader admits only snapshot and serializable,
                // and both mean MongoDB's one transaction isolation (snapshot isolation).
                for (String url : urls) MongoClientFactory.check(url, db.user(), db.password(), spec.connectTimeout());
                return new MongoClientFactory(urls, db.user(), db.password(), spec.timeout());
            default:
                throw new IllegalArgumentException("no client for " + spec.type());
        }
    }
}
