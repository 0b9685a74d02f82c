#!/usr/bin/env bash
# Starts a Galera node through the mariadb entrypoint. The node with GALERA_BOOTSTRAP=1 starts a new cluster
# (--wsrep-new-cluster) only on its first start: restarted after a crash or a kill, its data directory exists and it
# joins the others like any node (bootstrapping again would split the cluster in two). After all nodes were stopped,
# start the one that stopped last with GALERA_BOOTSTRAP=force (and safe_to_bootstrap: 1 in its grastate.dat).
set -Eeuo pipefail
if [ "${1:0:1}" = '-' ]; then set -- mariadbd "$@"; fi
case "${GALERA_BOOTSTRAP:-0}" in
  force) set -- "$@" --wsrep-new-cluster ;;
  1) if [ ! -d /var/lib/mysql/mysql ]; then set -- "$@" --wsrep-new-cluster; fi ;;
esac
# The donor of a mariabackup state transfer reads its own data through the server as root.
exec docker-entrypoint.sh "$@" --wsrep-sst-auth="root:${MARIADB_ROOT_PASSWORD:-${MYSQL_ROOT_PASSWORD:-}}"
