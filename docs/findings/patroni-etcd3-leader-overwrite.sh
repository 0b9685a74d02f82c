#!/usr/bin/env bash
# A deterministic reproduction of writes lost when a stalled primary comes back under Patroni 3.0.2 with etcd's v3 API
# (see patroni-etcd3-leader-overwrite.md beside this file).
#
# A three-member cluster (etcd, Patroni, PostgreSQL 15; asynchronous replication unless --sync). The leader n1 stalls:
# its Patroni and its postmaster are stopped (SIGSTOP), as a frozen virtual machine or a long pause of the host
# would. Its lease in etcd expires, another member takes the leader key and is promoted, and a client commits a row
# on that new leader. Then n1 is continued (SIGCONT). n1's Patroni, with its view from before the stall, still
# believes it holds the leader key; its lease is gone, so it asks etcd for a new one and writes the leader key with
# its own name, unconditionally: the new leader's key is overwritten. The new leader, no longer owning the key,
# demotes itself and rewinds to n1's timeline, and the row its client was told was committed is on no member.
#
# The witness is etcd's own history of the leader key (its watch API, from the revision before the stall): a PUT by
# n1 that keeps the new leader's create_revision overwrote a key that existed. A PUT that takes a key over from its
# creator can only come from a write that compared nothing.
#
# The cluster comes from patroni-scratch-cluster.sh, beside this file.
#
# Usage: patroni-etcd3-leader-overwrite.sh [--sync | --strict] [--tries N]
#   --sync     synchronous_mode: true
#   --strict   synchronous_mode: true and synchronous_mode_strict: true
#   --tries N  stall and continue the leader up to N times (default 3) until a write is lost: not every stall ends
#              in the overwrite (in some, the continued Patroni reads the new owner first)
# Environment: as patroni-scratch-cluster.sh says (KEEP=1, PSQL, PG_BIN, PATRONI: e.g. patroni.py of another version,
#   from its source tree). Needs Debian's patroni (3.0.2), etcd-server and postgresql-15.
# Exit status: 1 when a row the client was told was committed is on no member (LOST), 0 when not in any try
# (NOT LOST), 2 on a setup problem. Run as root, it runs etcd, Patroni and PostgreSQL as user postgres.
set -euo pipefail

DCS="    synchronous_mode: false" MODE=asynchronous TRIES=3
while [ $# -gt 0 ]; do
    case $1 in
        --sync) DCS="    synchronous_mode: true"; MODE="synchronous_mode";;
        --strict) DCS="    synchronous_mode: true
    synchronous_mode_strict: true"; MODE="synchronous_mode_strict";;
        --tries) TRIES=${2:?--tries needs a number}; shift;;
        *) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
    esac
    shift
done
SCRATCH=patroni-leader-overwrite
# shellcheck source=patroni-scratch-cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/patroni-scratch-cluster.sh"
start_etcd
write_members "$DCS"

KEY=/service/$SCRATCH/leader
KEY64=$(printf %s "$KEY" | base64 -w0)
etcd_api() {  # etcd_api PATH JSON: a call to etcd's v3 JSON gateway
    curl -fsS -m "${3:-5}" "http://$H:$ETCD_PORT$1" -d "$2"
}
revision() { etcd_api /v3/kv/range "{\"key\":\"$KEY64\"}" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["header"]["revision"])'; }
leader_key() {  # the leader key now: its value (a member's name), its create and mod revisions, its lease
    etcd_api /v3/kv/range "{\"key\":\"$KEY64\"}" | "$PYTHON" -c '
import base64, json, sys
kvs = json.load(sys.stdin).get("kvs", [])
if not kvs: print("absent")
for kv in kvs:
    print(base64.b64decode(kv["value"]).decode(), "create_revision", kv["create_revision"], "mod_revision",
          kv["mod_revision"], "lease", format(int(kv.get("lease", 0)), "x"))'
}
history() {  # etcd's history of the leader key from revision $1: one line per change
    # The watch streams the changes since that revision and then waits for more: it is cut after 2 s.
    etcd_api /v3/watch "{\"create_request\":{\"key\":\"$KEY64\",\"start_revision\":\"$1\"}}" 2 2>/dev/null \
        | "$PYTHON" -c '
import base64, json, sys
owner = {}
for line in sys.stdin:
    for ev in json.loads(line).get("result", {}).get("events", []):
        kv = ev["kv"]
        kind = ev.get("type", "PUT")
        who = base64.b64decode(kv.get("value", "")).decode() if kind == "PUT" else "-"
        note = ""
        if kind == "PUT":
            creator = owner.setdefault(kv["create_revision"], who)
            if creator != who:
                note = "  <- overwrites the key " + creator + " created at revision " + kv["create_revision"]
            elif kv["mod_revision"] == kv["create_revision"]:
                note = "  (created)"
        print("    revision", kv["mod_revision"], kind, who, "lease", format(int(kv.get("lease", 0)), "x"), note)' || true
}
leader_not() { cluster "$2" | grep -E "^n[123] leader running" | grep -vq "^$1 "; }
rows() { sql "$1" 'SELECT coalesce(string_agg(id::text, $$,$$ ORDER BY id), $$none$$) FROM t'; }
has_sync_standby() { cluster "$1" | grep -q " sync_standby "; }

echo "$(versions); $MODE; ttl 10, loop_wait 2, retry_timeout 5"
start n1
wait_for 90 "n1 did not become the leader" role_is n1 leader
start n2
start n3
wait_for 90 "n2 did not stream" streams n2
wait_for 90 "n3 did not stream" streams n3
echo "cluster: $(cluster | paste -sd';' | sed 's/;/; /g')"
sql n1 "CREATE TABLE t (id int PRIMARY KEY, note text NOT NULL); INSERT INTO t VALUES (0, 'before the stalls');" >/dev/null

OLD=n1
declare -A MARK
for try in $(seq 1 "$TRIES"); do
    echo "--- try $try: the leader is $OLD"
    # In synchronous mode only the synchronous standby may be promoted: without one named, a stalled leader stays
    # the leader.
    [ "$MODE" = asynchronous ] || wait_for 60 "no synchronous standby was named" has_sync_standby "$OLD"
    FROM=$(revision)
    echo "leader key: $(leader_key)"
    # --- the stall: the leader's Patroni and postmaster stopped, as a frozen machine ---
    PM=$(postmaster_pid "$OLD")
    [ -n "$PM" ] || fail "no postmaster found for $OLD"
    kill -STOP "${PID[$OLD]}" "$PM"
    echo "$(now) SIGSTOP of $OLD's Patroni (pid ${PID[$OLD]}) and postmaster (pid $PM)"
    ASK=n1; [ "$OLD" = n1 ] && ASK=n2
    wait_for 60 "no other member became the leader" leader_not "$OLD" "$ASK"
    NEW=$(cluster "$ASK" | awk '$2 == "leader" && $3 == "running" {print $1}')
    echo "$(now) $NEW is the leader: $(cluster "$ASK" | paste -sd';' | sed 's/;/; /g')"
    echo "leader key: $(leader_key)"

    # --- a client of the new leader; with --strict its COMMIT may wait for a synchronous standby ---
    ID=$try
    out=$(timeout 20 "$PSQL" -X -A -t -v ON_ERROR_STOP=1 -h "$H" -p "${PG[$NEW]}" -U postgres -d postgres \
        -c "BEGIN" -c "INSERT INTO t VALUES ($ID, 'committed on $NEW') RETURNING id" -c "COMMIT" 2>&1) && rc=0 || rc=$?
    acked=false
    [ $rc = 0 ] && grep -qx COMMIT <<<"$out" && grep -qx "$ID" <<<"$out" && acked=true
    echo "$(now) client on $NEW: INSERT INTO t VALUES ($ID, ...); COMMIT -> $($acked && echo "acknowledged" || echo "not acknowledged (exit $rc): $(tr '\n' ' ' <<<"$out")")"
    echo "    rows of t on $NEW: $(rows "$NEW")"

    # --- the stalled leader continued ---

    for m in n1 n2 n3; do MARK[$m]=$(wc -l <"$W/$m.log"); done
    kill -CONT "$PM" "${PID[$OLD]}"
    echo "$(now) SIGCONT of $OLD"
    # settle: one leader that every member follows, and the two others replicas of it
    settled() {
        local l
        l=$(cluster "$NEW" | awk '$2 == "leader" && $3 == "running" {print $1}')
        [ -n "$l" ] || return 1
        for m in n1 n2 n3; do [ "$m" = "$l" ] || streams "$m" || return 1; done
        LEADER=$l
    }
    wait_for 120 "the cluster did not settle after $OLD was continued" settled
    echo "$(now) settled: $(cluster "$NEW" | paste -sd';' | sed 's/;/; /g')"
    echo "etcd's history of the leader key since revision $FROM:"
    history "$FROM"
    for m in "$OLD" "$NEW"; do
        echo "$m's Patroni after the SIGCONT:"
        # Patroni's own lines about the leader key and roles, each kind once, in order
        tail -n +"$((MARK[$m] + 1))" "$W/$m.log" \
            | grep -E "INFO: (Lock owner|Demoting self|promoted self|demoting self|no action|Could not take out)" \
            | awk '{k = $0; sub(/^[^ ]+ [^ ]+ /, "", k)} !seen[k]++' | head -n 8 | sed 's/^/    /' | cut -c1-150
    done
    on_leader=$(rows "$LEADER")
    echo "rows of t on the leader $LEADER: $on_leader; on $NEW: $(rows "$NEW")"
    if $acked && ! grep -Eq "(^|,)$ID(,|$)" <<<"$on_leader"; then
        echo "LOST: $NEW acknowledged COMMIT of row $ID while it held the leader key; after $OLD came back the leader" \
             "is $LEADER and no member has the row"
        exit 1
    fi
    OLD=$LEADER
done
echo "NOT LOST in $TRIES tries: every acknowledged row is on the leader"
exit 0
