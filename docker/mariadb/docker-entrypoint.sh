#!/usr/bin/env bash
# The official mariadb image's start-up, in small: on the first start (no /var/lib/mysql/mysql), mariadb-install-db,
# then a server without networking and without Galera (wsrep_on=OFF, so a Galera node does not join yet) sets the
# root password (root@localhost and root@'%'), creates $MARIADB_DATABASE and $MARIADB_USER (granted all on it) and runs
# /docker-entrypoint-initdb.d/*.sql; then the real server with the command's options. MYSQL_* names work too.
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then set -- mariadbd "$@"; fi

if { [ "$1" = mariadbd ] || [ "$1" = mysqld ]; } && [ "$(id -u)" = 0 ]; then
  # Root only fixes ownership (a mounted volume may belong to anyone), then the rest runs as mysql.
  mkdir -p /var/lib/mysql /run/mysqld
  chown mysql:mysql /var/lib/mysql /run/mysqld
  exec setpriv --reuid=mysql --regid=mysql --init-groups "${BASH_SOURCE[0]}" "$@"
fi

sql_string() { # a value as a quoted SQL string
  local s=${1//\\/\\\\}
  printf "'%s'" "${s//\'/\\\'}"
}

sql_name() { # a value as a quoted SQL identifier
  # shellcheck disable=SC2016 # the backquotes are SQL's
  printf '`%s`' "${1//\`/\`\`}"
}

if { [ "$1" = mariadbd ] || [ "$1" = mysqld ]; } && [ ! -d /var/lib/mysql/mysql ]; then
  root_pw="${MARIADB_ROOT_PASSWORD:-${MYSQL_ROOT_PASSWORD:-}}"
  allow_empty="${MARIADB_ALLOW_EMPTY_ROOT_PASSWORD:-${MYSQL_ALLOW_EMPTY_PASSWORD:-}}"
  database="${MARIADB_DATABASE:-${MYSQL_DATABASE:-}}"
  user="${MARIADB_USER:-${MYSQL_USER:-}}"
  password="${MARIADB_PASSWORD:-${MYSQL_PASSWORD:-}}"
  root_host="${MARIADB_ROOT_HOST:-${MYSQL_ROOT_HOST:-%}}"
  if [ -z "$root_pw" ] && [ -z "$allow_empty" ]; then
    echo "error: database is uninitialized and password option is not specified; set MARIADB_ROOT_PASSWORD" \
      "(or MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=1)" >&2
    exit 1
  fi
  echo "initializing the database"
  mariadb-install-db --datadir=/var/lib/mysql --skip-test-db --auth-root-authentication-method=normal \
    --default-time-zone=SYSTEM --skip-log-bin --expire-logs-days=0 >/dev/null

  socket=/run/mysqld/mysqld.sock
  "$@" --skip-networking --socket="$socket" --wsrep_on=OFF --skip-log-bin --expire-logs-days=0 --skip-slave-start &
  pid=$!
  mysql=(mariadb --no-defaults --protocol=socket --socket="$socket" -uroot)
  for _ in $(seq 1 60); do
    "${mysql[@]}" -e 'SELECT 1' >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { echo "error: the initializing server exited" >&2; exit 1; }
    sleep 0.5
  done

  {
    echo "SET @@SESSION.SQL_LOG_BIN=0;"
    echo "DROP USER IF EXISTS root@'127.0.0.1', root@'::1';"
    echo "EXECUTE IMMEDIATE CONCAT('DROP USER IF EXISTS root@', QUOTE(@@hostname));"
    echo "SET PASSWORD FOR 'root'@'localhost' = PASSWORD($(sql_string "$root_pw"));"
    if [ "$root_host" != localhost ]; then
      echo "CREATE USER 'root'@$(sql_string "$root_host") IDENTIFIED BY $(sql_string "$root_pw");"
      echo "GRANT ALL ON *.* TO 'root'@$(sql_string "$root_host") WITH GRANT OPTION;"
    fi
    if [ -n "$database" ]; then echo "CREATE DATABASE IF NOT EXISTS $(sql_name "$database");"; fi
    if [ -n "$user" ]; then
      echo "CREATE USER $(sql_string "$user")@'%' IDENTIFIED BY $(sql_string "$password");"
      if [ -n "$database" ]; then echo "GRANT ALL ON $(sql_name "$database").* TO $(sql_string "$user")@'%';"; fi
    fi
  } | "${mysql[@]}" mysql
  for f in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$f" ] || continue
    echo "running $f"
    "${mysql[@]}" --password="$root_pw" "${database:-mysql}" < "$f"
  done

  kill "$pid"
  wait "$pid" || true
  echo "MariaDB init process done. Ready for start up."
fi

exec "$@"
