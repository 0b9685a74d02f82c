#!/usr/bin/env bash
# The official postgres image's start-up, in small: on the first start, initdb in $PGDATA with superuser
# $POSTGRES_USER (password $POSTGRES_PASSWORD), a database $POSTGRES_DB, password logins from any address, and
# /docker-entrypoint-initdb.d/*.sql and *.sh run on a server that listens on no TCP port; then the real server.
# Both servers log "database system is ready to accept connections", which is what Testcontainers waits for (twice).
# Also docker/postgres-zonky's entrypoint: zonky's binaries have no psql, so there the database is created in
# single-user mode, no temporary server starts (one "ready" line), and initdb.d scripts are refused.
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  # Root only fixes ownership (a mounted volume may belong to anyone), then the rest runs as postgres.
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo "error: database is uninitialized and POSTGRES_PASSWORD is empty; set it (or POSTGRES_HOST_AUTH_METHOD=trust)" >&2
    exit 1
  fi
  pwfile=$(umask 077; mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-}" > "$pwfile"
  pwargs=()
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then pwargs=(--pwfile="$pwfile"); fi
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS holds several words, as in the official image
  initdb --username="$POSTGRES_USER" "${pwargs[@]}" -D "$PGDATA" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host="$auth" ${POSTGRES_INITDB_ARGS:-}
  rm -f "$pwfile"
  printf '\nhost all all all %s\n' "$auth" >> "$PGDATA/pg_hba.conf"
  printf "\nlisten_addresses = '*'\n" >> "$PGDATA/postgresql.conf"

  if ! command -v psql >/dev/null; then
    if compgen -G '/docker-entrypoint-initdb.d/*' >/dev/null; then
      echo "error: /docker-entrypoint-initdb.d needs psql, which this image (zonky's binaries) does not have" >&2
      exit 1
    fi
    if [ "$POSTGRES_DB" != postgres ]; then
      # Single-user mode reads one command per line; the name is quoted as an identifier.
      printf 'CREATE DATABASE "%s"\n' "${POSTGRES_DB//\"/\"\"}" | postgres --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "PostgreSQL init process complete; ready for start up."
    exec "$@"
  fi
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start
  psql=(psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --host /var/run/postgresql)
  if [ "$POSTGRES_DB" != postgres ]; then
    "${psql[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    # shellcheck disable=SC1090 # the user's scripts, sourced as the official image does
    case "$f" in
      *.sql) echo "running $f"; "${psql[@]}" --dbname "$POSTGRES_DB" -f "$f" ;;
      *.sh) echo "running $f"; . "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo "PostgreSQL init process complete; ready for start up."
fi

exec "$@"
