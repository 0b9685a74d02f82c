package isostress.harness.db;

import isostress.harness.config.Campaign;
import isostress.harness.db.mongo.MongoClientFactory;
import isostress.harness.provision.RunningDatabase;

import java.util.List;

/** The client library for a campaign's database type. */
public final class ClientFactories {
    private ClientFactories() {
    }

    /**
     * Clients for {@code db}, one per session, reaching node i at {@code urls.get(i)} (the node's own URL, or a
     * fault proxy in front of it).
     */
    public static ClientFactory of(Campaign.Database spec, RunningDatabase db, List<String> urls, int sessions) {
        switch (spec.type()) {
            case POSTGRESQL:
                return new JdbcClientFactory(db, urls, new PostgresAdapter(spec.upsert(), spec.opPause(), spec.tables()), spec.isolation(), sessions, spec.timeout());
            case MARIADB:
            case MYSQL:
                return new JdbcClientFactory(db, urls, new MariaDbAdapter(spec.upsert(), spec.opPause(), spec.tables()), spec.isolation(), sessions, spec.timeout());
            case MONGODB:
                // Always snapshot read concern + majority writes: the loader admits only snapshot and serializable,
                // and both mean MongoDB's one transaction isolation (snapshot isolation).
                return new MongoClientFactory(urls, db.user(), db.password(), spec.timeout());
            default:
                throw new IllegalArgumentException("no client for " + spec.type());
        }
    }
}
