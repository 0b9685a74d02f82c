package isostress.harness.db;

/** How the database is obtained. */
public enum Provision { EMBEDDED, LOCAL, DOCKER, EXTERNAL }
