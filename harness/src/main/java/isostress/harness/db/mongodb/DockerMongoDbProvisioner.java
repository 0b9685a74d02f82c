package isostress.harness.db.mongodb;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.ContainerLog;
import isostress.harness.provision.DockerContainers;
import isostress.harness.provision.DockerDatabase;
import isostress.harness.provision.DockerNode;
import isostress.harness.provision.Host;
import org.testcontainers.mongodb.MongoDBContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code provision: docker} for MongoDB: {@code mongo:<version>} (default {@value #DEFAULT_VERSION}) or the
 * campaign's image as a one-node replica set, since MongoDB's transactions need one. No authentication; the
 * campaign's settings become {@code --k=v} options; its output goes to {@code mongodb-n1.log}.
 */
final class DockerMongoDbProvisioner implements Provisioner {
    static final String DEFAULT_VERSION = "7.0";

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        DockerContainers.prepare(logs);
        if (db.nodes() > 1) {
            throw new IOException("provision: docker starts MongoDB as a one-node replica set; for " + db.nodes()
                    + " nodes run your own replica set and use provision: external");
        }
        String image = DockerContainers.image(db, "mongo", DEFAULT_VERSION);
        MongoDBContainer c = new MongoDBContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mongo"))
                .withReplicaSet();
        List<String> cmd = new ArrayList<>(List.of("--replSet", "docker-rs")); // what withReplicaSet initiates
        for (Map.Entry<String, String> e : db.settings().entrySet()) cmd.add("--" + e.getKey() + "=" + e.getValue());
        c.setCommand(cmd.toArray(String[]::new));
        c.withStartupTimeout(DockerContainers.STARTUP);
        int port = Host.freePort();
        c.setPortBindings(List.of(port + ":27017"));
        ContainerLog log = new ContainerLog(logs.resolve("mongodb-n1.log"));
        c.withLogConsumer(log);
        long t0 = System.nanoTime();
        DockerContainers.start(c, "MongoDB", image, log);
        String host = c.getHost();
        // The replica set's one member is named after the container, which only Docker's network resolves: the
        // clients talk to this node directly.
        String url = "mongodb://" + host + ":" + port + "/" + DockerContainers.DATABASE + "?directConnection=true";
        DockerNode node = new DockerNode("n1", c, url, host, port, () -> {
            var r = c.execInContainer("sh", "-c", "mongosh --quiet --eval 'db.hello().isWritablePrimary' "
                    + "|| mongo --quiet --eval 'db.isMaster().ismaster'");
            return r.getStdout().contains("true");
        }, DockerContainers.RESTART, log);
        return new DockerDatabase(List.of(node), null, null, null, "docker MongoDB replica set of 1 (" + image
                + ") at " + host + ":" + port + ", up in " + DockerContainers.seconds(t0) + " s");
    }
}
