#!/usr/bin/env bash
# A deterministic reproduction of a write lost by Patroni 3.0's synchronous_mode (not strict) behind a zombie primary
# (see patroni-sync-zombie-release.md beside this file).
#
# A three-member cluster (etcd, Patroni, PostgreSQL 15) with synchronous_mode: true. The leader n1's Patroni is killed
# (SIGKILL) and its postmaster lives on: a zombie primary. Once the synchronous standby n2 has taken the leader key
# and been promoted, a client writes to n1 directly; its COMMIT waits for n2's acknowledgement, which never comes.
# Then n1's Patroni is started again, as after a restart of the service: it writes postgresql.conf without
# synchronous_standby_names and reloads PostgreSQL before its first HA cycle demotes n1; the reload lets the waiting
# COMMIT return success. n1 then rewinds to n2's timeline and the acknowledged row is on no member.
#
# Usage: patroni-sync-zombie-release.sh [--strict]
#   --strict  synchronous_mode_strict: true as well (Patroni then writes synchronous_standby_names = '*' on start,
#             and the COMMIT stays blocked until the demotion ends the session: nothing is lost)
# Environment: KEEP=1 keeps the scratch directory (its path is printed); PSQL (default: psql on the PATH);
#   PG_BIN (default /usr/lib/postgresql/15/bin); PATRONI (default /usr/bin/patroni: another version's patroni.py,
#   from a source tree, runs the same with Debian's Python modules); PG_HBA=0 leaves pg_hba out of the members'
#   configuration (initdb's own pg_hba.conf, trust on loopback, stays). Needs Debian's patroni (3.0.2), etcd-server
#   and postgresql-15: apt-get install -y patroni etcd-server postgresql-15
# Exit status: 1 when the client was told COMMIT and the row is absent from the new leader (LOST), 0 when not
# (NOT LOST), 2 on a setup problem. Run as root, it runs etcd, Patroni and PostgreSQL as user postgres (PostgreSQL
# refuses root); everything listens on 127.0.0.1, on free ports it picks.
set -euo pipefail

STRICT=false
case ${1:-} in
    --strict) STRICT=true;;
    "") ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
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

W=$(mktemp -d /tmp/patroni-sync-zombie.XXXXXX)
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
    for m in n1 n2 n3; do [ -n "${PID[$m]:-}" ] && kill -TERM "${PID[$m]}" 2>/dev/null || true; done
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

# --- etcd and the members' configuration (the harness's, reduced to what this needs) ---
mkdir -p "$W/etcd"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$W/etcd"
setsid "${AS[@]}" "$ETCD" --name zombie --data-dir "$W/etcd/data" \
    --listen-client-urls "http://$H:$ETCD_PORT" --advertise-client-urls "http://$H:$ETCD_PORT" \
    --listen-peer-urls "http://$H:$ETCD_PEER" --initial-advertise-peer-urls "http://$H:$ETCD_PEER" \
    --initial-cluster "zombie=http://$H:$ETCD_PEER" --enable-v2=false >"$W/etcd.log" 2>&1 &
ETCD_PID=$!
for _ in $(seq 1 100); do curl -fsS "http://$H:$ETCD_PORT/health" 2>/dev/null | grep -q '"true"' && break; sleep 0.1; done
curl -fsS "http://$H:$ETCD_PORT/health" 2>/dev/null | grep -q '"true"' || fail "etcd not healthy in 10 s, see $W/etcd.log"

# With pg_hba in the configuration Patroni rewrites pg_hba.conf when it starts, and so reloads PostgreSQL.
HBA='  pg_hba: ["local all all trust", "host all all 127.0.0.0/8 trust", "host replication all 127.0.0.0/8 trust"]'
[ "${PG_HBA:-1}" = 0 ] && HBA=
for m in n1 n2 n3; do
    mkdir -p "$W/$m"; chmod 700 "$W/$m"
    cat >"$W/$m.yml" <<EOF
scope: zombie
name: $m
restapi: {listen: "$H:${REST[$m]}", connect_address: "$H:${REST[$m]}"}
etcd3: {hosts: "$H:$ETCD_PORT"}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
    synchronous_mode: true
    synchronous_mode_strict: $STRICT
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
    superuser: {username: postgres, password: zombie}
    replication: {username: replicator, password: zombie}
    rewind: {username: postgres, password: zombie}
  parameters: {unix_socket_directories: "$W/$m"}
$HBA
EOF
    [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$W/$m" "$W/$m.yml"
done

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
wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.2 s
    local s=$1 what=$2; shift 2
    for _ in $(seq 1 $((s * 5))); do "$@" && return 0; sleep 0.2; done
    fail "$what within $s s; the cluster: $(cluster | paste -sd';'); see $W/*.log"
}
sql() {  # sql MEMBER SQL: through the member's socket, as postgres
    "$PSQL" -X -A -t -q -h "$W/$1" -p "${PG[$1]}" -U postgres -d postgres -c "$2" 2>&1
}
role_is() { cluster | grep -q "^$1 $2 "; }
# a replica as Patroni 3.0.2 lists it (its state is "running"; later versions say "streaming"), its walreceiver streaming
streams() { role_is "$1" replica && [ "$(sql "$1" 'SELECT status FROM pg_stat_wal_receiver')" = streaming ]; }
leader_not_n1() { cluster | grep -E '^n[23] leader running' >/dev/null; }

echo "Patroni $("$PYTHON" "$PATRONI" --version 2>/dev/null | awk '{print $2}'), $("$PG_BIN/postgres" --version)," \
     "etcd $("$ETCD" --version 2>/dev/null | awk '/etcd Version/ {print $3}'); synchronous_mode: true," \
     "synchronous_mode_strict: $STRICT; ttl 10, loop_wait 2, retry_timeout 5; pg_hba $([ -n "$HBA" ] && echo in || echo not in) the configuration"
start n1
wait_for 90 "n1 did not become the leader" role_is n1 leader
start n2
wait_for 90 "n2 did not become the synchronous standby" role_is n2 sync_standby
start n3
wait_for 90 "n3 did not stream" streams n3
wait_for 20 "n1's synchronous_standby_names did not name n2" \
    bash -c "[ \"\$(\"$PSQL\" -X -A -t -h '$W/n1' -p ${PG[n1]} -U postgres -d postgres -c 'SHOW synchronous_standby_names')\" = n2 ]"
echo "cluster: $(cluster | paste -sd';' | sed 's/;/; /g')"
echo "n1: synchronous_standby_names = $(sql n1 'SHOW synchronous_standby_names')"
sql n1 "CREATE TABLE t (id int PRIMARY KEY, note text NOT NULL); INSERT INTO t VALUES (1, 'before the fault');" >/dev/null
echo "n1: table t, row 1 committed (acknowledged by n2)"

# --- the fault: n1's Patroni only; its postmaster lives on ---
kill -KILL "${PID[n1]}"; wait "${PID[n1]}" 2>/dev/null || true
echo "$(date -u +%T.%3N) SIGKILL of n1's Patroni (pid ${PID[n1]}); n1's postmaster $(postmaster_pid n1) lives on"
wait_for 60 "no other member became the leader" leader_not_n1
NEW=$(cluster | awk '$2 == "leader" {print $1}')
echo "$(date -u +%T.%3N) $NEW is the leader: $(cluster | paste -sd';' | sed 's/;/; /g')"
[ "$(sql n1 'SELECT pg_is_in_recovery()')" = f ] || fail "n1 is no longer a primary"
echo "n1 (zombie): still a primary, synchronous_standby_names = $(sql n1 'SHOW synchronous_standby_names')," \
     "standbys streaming from it: $(sql n1 'SELECT count(*) FROM pg_stat_replication')"

# --- a client of the zombie: its COMMIT waits for n2, which no longer streams from n1 ---
"$PSQL" -X -A -t -v ON_ERROR_STOP=1 -h "$H" -p "${PG[n1]}" -U postgres -d postgres \
    -c "BEGIN" -c "INSERT INTO t VALUES (2, 'written on the zombie') RETURNING id" -c "COMMIT" \
    >"$W/client.out" 2>&1 &
CLIENT=$!
waiting() { [ "$(sql n1 "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")" = 1 ]; }
wait_for 10 "the client's COMMIT did not wait for synchronous replication" waiting
echo "$(date -u +%T.%3N) client on n1: BEGIN; INSERT INTO t VALUES (2, ...) RETURNING id; COMMIT -> waiting (SyncRep)"
sleep 2
kill -0 "$CLIENT" 2>/dev/null || fail "the client returned before n1's Patroni was started: $(cat "$W/client.out")"

# --- n1's Patroni started again ---
BEFORE=$(wc -l <"$W/n1.log")
start n1
echo "$(date -u +%T.%3N) n1's Patroni started again (pid ${PID[n1]})"
status=blocked
for _ in $(seq 1 300); do kill -0 "$CLIENT" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$CLIENT" 2>/dev/null; then
    kill "$CLIENT" 2>/dev/null; wait "$CLIENT" 2>/dev/null || true
    echo "$(date -u +%T.%3N) client: still blocked after 30 s, its psql killed"
else
    rc=0; wait "$CLIENT" || rc=$?
    status="exit $rc"
    echo "$(date -u +%T.%3N) client returned, psql exit status $rc:"
    sed 's/^/    /' "$W/client.out"
fi
CLIENT=
acked=false
[ "$status" = "exit 0" ] && grep -qx COMMIT "$W/client.out" && grep -qx 2 "$W/client.out" && acked=true

wait_for 120 "n1 did not rejoin as a streaming replica" streams n1
echo "$(date -u +%T.%3N) n1 rejoined: $(cluster | paste -sd';' | sed 's/;/; /g')"
echo "n1's log (Patroni's lines and its PostgreSQL's) from the restart to the demotion:"
tail -n +"$((BEFORE + 1))" "$W/n1.log" | awk '
    /nothing to reload|server signaled|received SIGHUP|synchronous_standby_names|Demoting|immediate shutdown/ { print }
    /Lock owner/ && !owner { print; owner = 1 }
    /database system is shut down/ { print; exit }' | sed 's/^/    /' | cut -c1-160
on_new=$(sql "$NEW" 'SELECT coalesce(string_agg(id::text, $$,$$ ORDER BY id), $$none$$) FROM t')
on_n1=$(sql n1 'SELECT coalesce(string_agg(id::text, $$,$$ ORDER BY id), $$none$$) FROM t')
echo "rows of t on the new leader $NEW: $on_new; on n1: $on_n1"
if $acked && ! grep -qx '1,2' <<<"$on_new"; then
    echo "LOST: n1 acknowledged COMMIT of row 2 after its Patroni was started again; no member has it"
    exit 1
fi
if $acked; then
    echo "NOT LOST: the client was told COMMIT and the new leader has the row"
else
    echo "NOT LOST: the client was not told COMMIT ($status), and row 2 is on no member"
fi
exit 0
