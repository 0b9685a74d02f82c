package isostress.harness.db;

/**
 * {@link InterruptedTxnContract} for {@code type: mysql}: MySQL Connector/J against the local MariaDB 10.11 that
 * {@code provision: local} starts, held and killed as {@link MariaDbInterruptedTxnTest} does, so the kill reaches
 * the harness through Connector/J's exceptions and MySqlAdapter.classify. Connector/J also sends the blocked UPDATE
 * as text with its parameters inlined (useServerPrepStmts=false by default), so the process list query finds it.
 */
class MySqlInterruptedTxnTest extends MariaDbInterruptedTxnTest {
    @Override
    String campaignYaml() {
        return super.campaignYaml().replace("maria-interrupted", "mysql-interrupted").replace("type: mariadb",
                "type: mysql");
    }
}
