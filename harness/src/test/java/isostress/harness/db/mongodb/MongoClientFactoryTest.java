package isostress.harness.db.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.TransactionOptions;
import com.mongodb.WriteConcern;
import isostress.checker.history.MicroOp;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.TxnClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The factory's settings, and what its clients do when no server listens (no MongoDB needed). */
class MongoClientFactoryTest {
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void noServerMeansUnreachableAndNothingIsRecordedAsTried() throws Exception {
        String uri = "mongodb://127.0.0.1:" + closedPort() + "/?directConnection=true";
        try (MongoClientFactory f = new MongoClientFactory(List.of(uri), null, null, Duration.ofMillis(300))) {
            TxnClient c = f.open(0, 0);
            long t0 = System.nanoTime();
            TxnClient.Unreachable e = assertThrows(TxnClient.Unreachable.class,
                    () -> c.run(List.of(new MicroOp.Read(0, null), new MicroOp.Write(0, 1)), k -> 0));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "gave up after the 300 ms server selection timeout, took " + ms + " ms");
            assertTrue(e.getMessage().startsWith("cannot reach MongoDB"), e.getMessage());
            c.close();
            assertThrows(MongoTimeoutException.class, () -> f.createSchema(WorkloadType.MINI, 9));
        }
    }

    @Test
    void everyClientTimeoutIsTheCampaignsAndTheUriCannotLengthenThem() {
        MongoClientSettings s = MongoClientFactory.settings("mongodb://h1:27017,h2:27017/?replicaSet=rs0"
                + "&socketTimeoutMS=600000&serverSelectionTimeoutMS=600000", null, null, Duration.ofSeconds(3));
        assertEquals(3000, s.getSocketSettings().getConnectTimeout(MILLISECONDS));
        assertEquals(3000, s.getSocketSettings().getReadTimeout(MILLISECONDS));
        assertEquals(3000, s.getClusterSettings().getServerSelectionTimeout(MILLISECONDS));
        assertEquals(3000, s.getConnectionPoolSettings().getMaxWaitTime(MILLISECONDS));
        assertEquals("rs0", s.getClusterSettings().getRequiredReplicaSetName());
        assertNull(s.getTimeout(MILLISECONDS), "no client-side operation timeout (timeoutMS)");
        assertNull(s.getCredential());
    }

    @Test
    void credentialsFromTheCampaignAuthenticateWhereTheUriSays() {
        MongoClientSettings s = MongoClientFactory.settings("mongodb://h1/?authSource=users", "alice", "pw",
                Duration.ofSeconds(1));
        assertEquals("alice", s.getCredential().getUserName());
        assertEquals("users", s.getCredential().getSource());
        assertEquals("pw", new String(s.getCredential().getPassword()));
        assertEquals("shop", MongoClientFactory.authSource(new ConnectionString("mongodb://h1/shop")));
        assertEquals("admin", MongoClientFactory.authSource(new ConnectionString("mongodb://h1/?replicaSet=rs0")));
        // Credentials in the URI are used as they are when the campaign names none.
        assertEquals("bob", MongoClientFactory.settings("mongodb://bob:secret@h1/", null, null, Duration.ofSeconds(1))
                .getCredential().getUserName());
    }

    @Test
    void transactionsAreSnapshotMajorityOnThePrimaryWithServerLimitsBelowTheClients() {
        TransactionOptions o = MongoClientFactory.transactionOptions(Duration.ofSeconds(4));
        assertEquals(ReadConcern.SNAPSHOT, o.getReadConcern());
        assertEquals(WriteConcern.MAJORITY.getWString(), o.getWriteConcern().getWString());
        assertEquals(3000, o.getWriteConcern().getWTimeout(MILLISECONDS));
        assertEquals(ReadPreference.primary(), o.getReadPreference());
        assertEquals(3000, o.getMaxCommitTime(MILLISECONDS));
        assertEquals(250, MongoClientFactory.clientLimitMillis(Duration.ofMillis(10)), "floor");
    }
}
