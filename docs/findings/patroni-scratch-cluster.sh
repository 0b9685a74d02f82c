# shellcheck shell=bash
# Sourced by the Patroni reproductions beside this file (patroni-sync-zombie-release.sh,
# patroni-etcd3-leader-overwrite.sh): a throw-away three-member cluster on 127.0.0.1 (one etcd, Patroni, PostgreSQL
# 15), each process run as user postgres when started as root (PostgreSQL refuses root), on free ports, everything
# stopped and the scratch directory removed on exit (KEEP=1 keeps it).
#
# The sourcing script sets, before it sources this file: SCRATCH (a name: the etcd member and Patroni scope, and the
# scratch directory's prefix). Environment: PSQL (default: psql on the PATH); PG_BIN (default
# /usr/lib/postgresql/15/bin); PATRONI (default /usr/bin/patroni: another version's patroni.py, from a source tree,
# runs the same with Debian's Python modules); KEEP=1. Needs Debian's patroni (3.0.2), etcd-server and postgresql-15.
# A setup problem ends the script with exit status 2.

PSQL=${PSQL:-psql}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PATRONI=${PATRONI:-/usr/bin/patroni} PYTHON=/usr/bin/python3 ETCD=/usr/bin/etcd
for f in "$PATRONI" "$PYTHON" "$ETCD" "$PG_BIN/postgres" "$PG_BIN/pg_rewind" "$PG_BIN/pg_basebackup"; do
    [ -x "$f" ] || { echo "$f: not found; apt-get install -y patroni etcd-server postgresql-15" >&2; exit 2; }
done
command -v "$PSQL" >/dev/null || { echo "psql not found: install postgresql-client-15 or set PSQL" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl not found: apt-get install -y curl" >&2; exit 2; }
AS=()
if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "user postgres not found (postgresql-15 creates it)" >&2; exit 2; }
    AS=(/usr/bin/setpriv --reuid=postgres --regid=postgres --init-groups)
fi

W=$(mktemp -d "/tmp/$SCRATCH.XXXXXX")
chmod 755 "$W"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$W"
H=127.0.0.1

free_port() {  # a port nobody listens on, not yet handed out by this script
    local p
    for _ in $(seq 1 200); do
        p=$((20000 + RANDOM % 30000))
        case " ${TAKEN:-} " in *" $p "*) continue;; esac
        ss -Htan "( sport = :$p )" 2>/dev/null | grep -q . && continue
        TAKEN="${TAKEN:-} $p"; echo "$p"; return 0
    done
    echo "no free port found" >&2; return 1
}
ETCD_PORT=$(free_port); ETCD_PEER=$(free_port)
declare -A PG REST PID
for m in n1 n2 n3; do PG[$m]=$(free_port); REST[$m]=$(free_port); done
ETCD_PID=

postmaster_pid() {  # the postmaster of member $1, or nothing (the pid checked against the data directory)
    local f="$W/$1/data/postmaster.pid" p
    [ -f "$f" ] || return 0
    p=$(head -1 "$f" 2>/dev/null) || return 0
    [ -n "$p" ] && tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "$W/$1/data" && echo "$p"
    return 0
}
cleanup() {
    local rc=$? m p
    trap - EXIT
    [ -n "${CLIENT:-}" ] && kill "$CLIENT" 2>/dev/null || true
    for m in n1 n2 n3; do
        # a stopped (SIGSTOP) process is continued first, or it would not act on the TERM
        [ -n "${PID[$m]:-}" ] && kill -CONT "${PID[$m]}" 2>/dev/null || true
        p=$(postmaster_pid "$m"); [ -n "$p" ] && kill -CONT "$p" 2>/dev/null || true
        [ -n "${PID[$m]:-}" ] && kill -TERM "${PID[$m]}" 2>/dev/null || true
    done
    for _ in $(seq 1 150); do
        alive=0
        for m in n1 n2 n3; do [ -n "${PID[$m]:-}" ] && kill -0 "${PID[$m]}" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break; sleep 0.1
    done
    for m in n1 n2 n3; do
        [ -n "${PID[$m]:-}" ] && kill -KILL "${PID[$m]}" 2>/dev/null || true
        p=$(postmaster_pid "$m"); [ -n "$p" ] && kill -KILL "$p" 2>/dev/null || true
    done
    # backends of a postmaster killed above end on their own once it is gone (they watch its pipe)
    [ -n "$ETCD_PID" ] && { kill -TERM "$ETCD_PID" 2>/dev/null; wait "$ETCD_PID" 2>/dev/null; } || true
    if [ "${KEEP:-}" = 1 ]; then echo "scratch directory kept: $W"; else rm -rf "$W"; fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 2' INT TERM
fail() { echo "setup problem: $*" >&2; exit 2; }

start_etcd() {
    mkdir -p "$W/etcd"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$W/etcd"
    setsid "${AS[@]}" "$ETCD" --name "$SCRATCH" --data-dir "$W/etcd/data" \
        --listen-client-urls "http://$H:$ETCD_PORT" --advertise-client-urls "http://$H:$ETCD_PORT" \
        --listen-peer-urls "http://$H:$ETCD_PEER" --initial-advertise-peer-urls "http://$H:$ETCD_PEER" \
        --initial-cluster "$SCRATCH=http://$H:$ETCD_PEER" --enable-v2=false >"$W/etcd.log" 2>&1 &
    ETCD_PID=$!
    for _ in $(seq 1 100); do curl -fsS "http://$H:$ETCD_PORT/health" 2>/dev/null | grep -q '"true"' && break; sleep 0.1; done
    curl -fsS "http://$H:$ETCD_PORT/health" 2>/dev/null | grep -q '"true"' || fail "etcd not healthy in 10 s, see $W/etcd.log"
}

# write_members DCS [HBA]: each member's Patroni configuration (the harness's, reduced to what a reproduction needs).
# DCS: lines of bootstrap.dcs beyond ttl 10, loop_wait 2, retry_timeout 5 (each indented by four spaces). HBA:
# "in" (the default) or "out" of the configuration: with pg_hba in it, Patroni rewrites pg_hba.conf when it starts,
# and so reloads PostgreSQL.
write_members() {
    local dcs=$1 hba='  pg_hba: ["local all all trust", "host all all 127.0.0.0/8 trust", "host replication all 127.0.0.0/8 trust"]'
    [ "${2:-in}" = out ] && hba=
    for m in n1 n2 n3; do
        mkdir -p "$W/$m"; chmod 700 "$W/$m"
        cat >"$W/$m.yml" <<EOF
scope: $SCRATCH
name: $m
restapi: {listen: "$H:${REST[$m]}", connect_address: "$H:${REST[$m]}"}
etcd3: {hosts: "$H:$ETCD_PORT"}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
$dcs
    postgresql:
      use_pg_rewind: true
      parameters: {max_connections: 20, shared_buffers: 16MB}
  initdb: [{encoding: UTF8}]
postgresql:
  listen: "$H:${PG[$m]}"
  connect_address: "$H:${PG[$m]}"
  use_unix_socket: true
  data_dir: $W/$m/data
  bin_dir: $PG_BIN
  pgpass: $W/$m/pgpass
  authentication:
    superuser: {username: postgres, password: $SCRATCH}
    replication: {username: replicator, password: $SCRATCH}
    rewind: {username: postgres, password: $SCRATCH}
  parameters: {unix_socket_directories: "$W/$m"}
$hba
EOF
        [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$W/$m" "$W/$m.yml"
    done
}

start() {  # start member $1's Patroni (the harness's command line: setsid, setpriv to postgres, python3 patroni FILE)
    setsid "${AS[@]}" "$PYTHON" "$PATRONI" "$W/$1.yml" >>"$W/$1.log" 2>&1 &
    PID[$1]=$!
}
cluster() {  # one line per member from n1's (or $1's) REST API: name role state timeline
    local m=${1:-n1} p
    for p in "${REST[$m]}" "${REST[n2]}" "${REST[n3]}" "${REST[n1]}"; do
        curl -fsS -m 2 "http://$H:$p/cluster" 2>/dev/null | "$PYTHON" -c '
import json, sys
for m in json.load(sys.stdin)["members"]:
    print(m["name"], m["role"], m["state"], m.get("timeline", "-"))' 2>/dev/null && return 0
    done
    return 0
}
wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.2 s for at most SECONDS of wall time
    local s=$1 what=$2 end=$((SECONDS + $1)); shift 2
    while [ $SECONDS -lt $end ]; do "$@" && return 0; sleep 0.2; done
    fail "$what within $s s; the cluster: $(cluster | paste -sd';'); see $W/*.log"
}
sql() {  # sql MEMBER SQL: through the member's socket, as postgres; a member that does not answer in 10 s fails
    PGCONNECT_TIMEOUT=5 timeout 10 "$PSQL" -X -A -t -q -h "$W/$1" -p "${PG[$1]}" -U postgres -d postgres -c "$2" 2>&1
}
role_is() { cluster | grep -q "^$1 $2 "; }
# a replica (or the synchronous standby) whose walreceiver streams; Patroni 3.0.2 lists a replica's state as
# "running", later versions say "streaming", so the state is read from PostgreSQL itself
streams() {
    cluster | grep -Eq "^$1 (replica|sync_standby) " \
        && [ "$(sql "$1" 'SELECT status FROM pg_stat_wal_receiver')" = streaming ]
}
now() { date -u +%T.%3N; }
versions() {  # one line: the versions of Patroni, PostgreSQL and etcd in use
    echo "Patroni $("$PYTHON" "$PATRONI" --version 2>/dev/null | awk '{print $2}'), $("$PG_BIN/postgres" --version)," \
         "etcd $("$ETCD" --version 2>/dev/null | awk '/etcd Version/ {print $3}')"
}
