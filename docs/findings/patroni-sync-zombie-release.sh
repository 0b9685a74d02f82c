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
# The cluster comes from patroni-scratch-cluster.sh, beside this file.
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
    *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
esac
SCRATCH=patroni-sync-zombie
# shellcheck source=patroni-scratch-cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/patroni-scratch-cluster.sh"
start_etcd
HBA=in
[ "${PG_HBA:-1}" = 0 ] && HBA=out
write_members "    synchronous_mode: true
    synchronous_mode_strict: $STRICT" "$HBA"

leader_not_n1() { cluster | grep -E '^n[23] leader running' >/dev/null; }

echo "$(versions); synchronous_mode: true," \
     "synchronous_mode_strict: $STRICT; ttl 10, loop_wait 2, retry_timeout 5; pg_hba $HBA of the configuration"
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
echo "$(now) SIGKILL of n1's Patroni (pid ${PID[n1]}); n1's postmaster $(postmaster_pid n1) lives on"
wait_for 60 "no other member became the leader" leader_not_n1
NEW=$(cluster | awk '$2 == "leader" {print $1}')
echo "$(now) $NEW is the leader: $(cluster | paste -sd';' | sed 's/;/; /g')"
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
echo "$(now) client on n1: BEGIN; INSERT INTO t VALUES (2, ...) RETURNING id; COMMIT -> waiting (SyncRep)"
sleep 2
kill -0 "$CLIENT" 2>/dev/null || fail "the client returned before n1's Patroni was started: $(cat "$W/client.out")"

# --- n1's Patroni started again ---
BEFORE=$(wc -l <"$W/n1.log")
start n1
echo "$(now) n1's Patroni started again (pid ${PID[n1]})"
status=blocked
for _ in $(seq 1 300); do kill -0 "$CLIENT" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$CLIENT" 2>/dev/null; then
    kill "$CLIENT" 2>/dev/null; wait "$CLIENT" 2>/dev/null || true
    echo "$(now) client: still blocked after 30 s, its psql killed"
else
    rc=0; wait "$CLIENT" || rc=$?
    status="exit $rc"
    echo "$(now) client returned, psql exit status $rc:"
    sed 's/^/    /' "$W/client.out"
fi
CLIENT=
acked=false
[ "$status" = "exit 0" ] && grep -qx COMMIT "$W/client.out" && grep -qx 2 "$W/client.out" && acked=true

wait_for 120 "n1 did not rejoin as a streaming replica" streams n1
echo "$(now) n1 rejoined: $(cluster | paste -sd';' | sed 's/;/; /g')"
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
