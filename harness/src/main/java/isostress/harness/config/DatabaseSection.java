package isostress.harness.config;

import isostress.generator.workload.WorkloadType;
import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Databases;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.db.Secrets;
import isostress.harness.faults.NemesisSpec;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a campaign's {@code database:} section into a {@link DatabaseSpec} for {@link CampaignLoader}: the database
 * type, how it is provisioned, its URL, credentials' variables, isolation, nodes and timeouts, asking the
 * {@link Database} what it allows (snapshot on MariaDB is a problem with its key path, not a failure at run time).
 */
final class DatabaseSection {
    private static final List<String> KEYS = List.of("type", "provision", "version", "url", "user-env",
            "password-env", "isolation", "settings", "nodes", "image", "timeout", "connect-timeout", "writes", "op-pause",
            "tables", "replicas", "synchronous-standbys", "bin-dir", "patroni",
            "patroni-program");
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(\\.\\d+)?");

    private DatabaseSection() {
    }

    /**
     * The database; its timeout defaults longer under a nemesis. {@code provisionOverride} (the CLI's --provision)
     * replaces the file's provision when not null.
     */
    static DatabaseSpec read(ConfigNode d, NemesisSpec nemesis, Provision provisionOverride, ConfigNode w,
            WorkloadType workload) {
        d.rejectUnknownKeys(KEYS);
        String typeName = d.choice("type", "postgresql", Databases.names());
        Database type = Databases.byName(typeName == null ? "postgresql" : typeName);
        String dfltProvision = type.defaultProvision().yamlName();
        String prov = d.choice("provision", dfltProvision, Databases.yamlNames(Databases.provisions()));
        Provision provision = Provision.EXTERNAL;
        if (prov != null) provision = Provision.valueOf(prov.toUpperCase(Locale.ROOT));
        if (provisionOverride != null) provision = provisionOverride; // the CLI's --provision
        if (type.provisionProblem(provision) != null) d.problem("provision", type.provisionProblem(provision));
        String version = d.string("version", type.defaultVersion(provision));
        if (version != null && provision == Provision.EMBEDDED && !VERSION.matcher(version).matches()) {
            d.problem("version", "must look like 16.15 or 12.3.0, was '" + version + "'");
        }
        String binDir = d.string("bin-dir", null);
        if (binDir != null && type.binDirProblem(provision, binDir) != null) {
            d.problem("bin-dir", type.binDirProblem(provision, binDir));
        }
        String url = d.string("url", null);
        if (provision == Provision.EXTERNAL) {
            if (url == null) {
                d.problem("url", "is required with provision: external (a JDBC URL)");
            } else if (type.urlProblem(url) != null) {
                d.problem("url", type.urlProblem(url));
            }
        } else if (url != null) {
            d.problem("url", "only applies to provision: external");
        }
        String userEnv = d.string("user-env", null), passwordEnv = d.string("password-env", null);
        for (String[] e : new String[][] {{"user-env", userEnv}, {"password-env", passwordEnv}}) {
            if (e[1] != null && System.getenv(e[1]) == null) {
                d.problem(e[0], "environment variable " + e[1] + " is not set");
            }
        }
        String iso = d.choice("isolation", "serializable", List.of("read-uncommitted", "read-committed",
                "repeatable-read", "snapshot", "serializable"));
        Isolation isolation = Isolation.SERIALIZABLE;
        if (iso != null) isolation = Isolation.valueOf(iso.toUpperCase(Locale.ROOT).replace('-', '_'));
        if (type.isolationProblem(isolation) != null) d.problem("isolation", type.isolationProblem(isolation));
        Map<String, String> settings = d.scalars("settings");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String problem = type.settingProblem(e.getKey(), e.getValue());
            if (problem != null) d.problem("settings." + e.getKey(), problem);
        }
        // A Patroni cluster is a primary and two standbys unless told otherwise: what failover needs.
        int nodes = d.integer("nodes", provision == Provision.PATRONI ? 3L : 1L, 1, 9).intValue();
        if (type.nodesProblem(provision, nodes) != null) d.problem("nodes", type.nodesProblem(provision, nodes));
        Map<String, String> patroni = d.scalars("patroni");
        for (Map.Entry<String, String> e : patroni.entrySet()) {
            String problem = type.patroniSettingProblem(provision, e.getKey(), e.getValue());
            if (problem != null) d.problem("patroni." + e.getKey(), problem);
        }
        String patroniProgram = d.string("patroni-program", null);
        if (patroniProgram != null && type.patroniProgramProblem(provision, patroniProgram) != null) {
            d.problem("patroni-program", type.patroniProgramProblem(provision, patroniProgram));
        }
        if (nodes > 1 && provision == Provision.EXTERNAL) {
            d.problem("nodes", "only applies when isostress starts the database; for an external cluster give every "
                    + "node's address in the url");
        }
        String image = d.string("image", null);
        if (image != null && provision != Provision.DOCKER) d.problem("image", "only applies to provision: docker");
        Duration timeout = d.duration("timeout", false);
        if (timeout == null) timeout = nemesis != null ? Campaign.DEFAULT_TIMEOUT : Duration.ofSeconds(60);
        Duration connectTimeout = d.duration("connect-timeout", false);
        if (connectTimeout == null) {
            connectTimeout = timeout.compareTo(Campaign.DEFAULT_TIMEOUT) < 0 ? timeout : Campaign.DEFAULT_TIMEOUT;
        }
        String writes = d.choice("writes", "update", List.of("update", "upsert"));
        boolean sql = type instanceof JdbcDatabase;
        if ("upsert".equals(writes) && !sql) {
            d.problem("writes", "upsert is SQL's; " + type.name() + " writes are updates of documents");
        }
        Duration opPause = d.duration("op-pause", true); // 0: no pause, the default
        int tables = d.integer("tables", 1L, 1, 1000).intValue();
        if (tables > 1 && !sql) d.problem("tables", "tables is SQL's; " + type.name() + " uses one collection");
        DatabaseSpec db = new DatabaseSpec(type, provision, version, url, userEnv, passwordEnv, isolation,
                settings, nodes, image, timeout, "upsert".equals(writes), opPause == null ? Duration.ZERO : opPause,
                tables, connectTimeout,
                ReplicasSection.read(d, w, type, provision, version, isolation, nodes, workload, nemesis != null),
                binDir, patroni, patroniProgram);
        Secrets.register(db);
        return db;
    }
}
