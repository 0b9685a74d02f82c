#!/usr/bin/env bash
# A deterministic three-session reproduction of PostgreSQL's SERIALIZABLE G2-item (see
# postgres-ssi-g2-item-reproduction.md beside this file).
#
# T_out's COMMIT is held by gdb at ReleasePredicateLocks, that is after ProcArrayEndTransaction made it visible to
# new snapshots and before SSI marks it committed; meanwhile the pivot reads T_out's key and commits, and T_in takes
# its snapshot. Then T_out is let go, and T_in reads the pivot's key.
#
# Usage: pg-ssi-commit-window.sh BINDIR WORKDIR [MODE]
#   BINDIR   directory holding initdb, pg_ctl and postgres (with symbols: gdb needs ReleasePredicateLocks)
#   WORKDIR  scratch directory for the throwaway cluster; deleted and recreated
#   MODE     window    (default) T_in writes a row, then reads the pivot's key after T_out is let go
#            window-ro the same with a T_in that only reads (the read-only anomaly)
#            window-rmw the pivot reads x before T_out writes it, and T_out reads x before its UPDATE (the rw
#                      edge then comes from the pivot's SIREAD lock, not from the row's newer version)
#            control   T_in reads the pivot's key while T_out is still held
#            declared-ro as control, with T_in declared READ ONLY (and writing nothing)
#            pivot-late the pivot commits after T_out is let go (T_in's snapshot still taken while T_out is held)
#            plain     the same statements in the same order, T_out not held
# Environment: PORT (default 54329), PSQL (default: psql on the PATH), GDB (default: gdb on the PATH).
# Exit status: 1 when all three transactions committed (a serialization anomaly), 0 when one was refused,
# 2 on a setup problem. As root the server runs through `unshare -U` (PostgreSQL refuses to run as root).
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
BIN=$(cd "$1" && pwd)
W=$2
MODE=${3:-window}
PORT=${PORT:-54329}
PSQL=${PSQL:-psql}
GDB=${GDB:-gdb}
case $MODE in window|window-ro|window-rmw|control|declared-ro|pivot-late|plain) ;;
    *) echo "unknown mode '$MODE' (window, window-ro, window-rmw, control, declared-ro, pivot-late, plain)" >&2
       exit 2;;
esac
for tool in "$BIN/initdb" "$BIN/pg_ctl" "$BIN/postgres"; do
    [ -x "$tool" ] || { echo "$tool: not found or not executable" >&2; exit 2; }
done
command -v "$PSQL" >/dev/null || { echo "psql not found: install a PostgreSQL client or set PSQL" >&2; exit 2; }
if [ "$MODE" != plain ]; then
    command -v "$GDB" >/dev/null || { echo "gdb not found: install gdb or set GDB" >&2; exit 2; }
    nm "$BIN/postgres" 2>/dev/null | grep ' T ReleasePredicateLocks$' >/dev/null \
        || { echo "$BIN/postgres has no symbol ReleasePredicateLocks (stripped?)" >&2; exit 2; }
fi

AS=()
[ "$(id -u)" = 0 ] && AS=(unshare -U)
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)

"${AS[@]}" "$BIN/initdb" -D "$W/data" -U postgres -A trust --no-sync >"$W/initdb.log" 2>&1 \
    || { echo "initdb failed, see $W/initdb.log" >&2; exit 2; }
"${AS[@]}" "$BIN/pg_ctl" -D "$W/data" -l "$W/server.log" -w \
    -o "-p $PORT -k $W -c listen_addresses= -c fsync=off -c default_transaction_isolation=serializable" \
    start >"$W/pg_ctl.log" 2>&1 || { echo "pg_ctl start failed, see $W/server.log" >&2; exit 2; }

declare -A FD OFF
SESSIONS=()
cleanup() {
    touch "$W/release"                      # lets a held backend go if gdb is still waiting
    for s in "${SESSIONS[@]}"; do eval "exec ${FD[$s]}>&-" 2>/dev/null || true; done
    "${AS[@]}" "$BIN/pg_ctl" -D "$W/data" -m immediate stop >>"$W/pg_ctl.log" 2>&1 || true
}
trap cleanup EXIT

open() {   # open NAME: a psql session fed through a fifo
    local s=$1 fd
    mkfifo "$W/$s.in"
    "$PSQL" -X -A -t -v ON_ERROR_STOP=0 -h "$W" -p "$PORT" -U postgres -d postgres \
        <"$W/$s.in" >"$W/$s.out" 2>&1 &
    exec {fd}>"$W/$s.in"
    FD[$s]=$fd; OFF[$s]=0; SESSIONS+=("$s")
}
n=0
send() {   # send NAME SQL: no wait; the marker that follows it is @@n
    n=$((n + 1))
    printf '%-7s %s\n' "$1:" "$2"
    printf '%s\n\\echo @@%d\n' "$2" "$n" >&"${FD[$1]}"
}
await() {  # await NAME MARKER: wait for the session to answer up to MARKER, print what it said since last time
    local s=$1 m=$2 i
    for i in $(seq 1 300); do grep -qx "@@$m" "$W/$s.out" && break; sleep 0.05; done
    grep -qx "@@$m" "$W/$s.out" || { echo "$s did not answer within 15 s" >&2; exit 2; }
    OUT=$(awk -v from="${OFF[$s]}" -v m="@@$m" 'NR > from { if ($0 == m) exit; if ($0 !~ /^@@/) print }' "$W/$s.out")
    OFF[$s]=$(grep -nx "@@$m" "$W/$s.out" | cut -d: -f1)
    [ -n "$OUT" ] && printf '%s\n' "$OUT" | sed 's/^/          -> /'
    return 0
}
step() { send "$1" "$2"; await "$1" "$n"; }
committed=0
commit() { step "$1" "COMMIT;"; printf '%s\n' "$OUT" | grep -qx COMMIT && committed=$((committed + 1)); return 0; }

open setup
step setup "CREATE TABLE kv (k int PRIMARY KEY, v int NOT NULL); INSERT INTO kv SELECT g, 0 FROM generate_series(1, 3) g;"
echo "keys: x = 1 (T_out writes, pivot reads), y = 2 (pivot writes, T_in reads), z = 3 (T_in writes)"
echo "server: $("$PSQL" -X -A -t -h "$W" -p "$PORT" -U postgres -d postgres -c 'SHOW server_version')" \
     "default_transaction_isolation = serializable; mode: $MODE"
open tout; open pivot; open tin

step tout "BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT pg_backend_pid();"
TOUT_PID=$(printf '%s\n' "$OUT" | grep -x '[0-9]*' | head -1)
if [ "$MODE" = window-rmw ]; then
    step tout "SELECT v FROM kv WHERE k = 1;"                    # T_out reads x first
    step pivot "BEGIN ISOLATION LEVEL SERIALIZABLE;"
    step pivot "SELECT v FROM kv WHERE k = 1;"                   # pivot: its snapshot; reads x, a SIREAD lock on it
    step pivot "UPDATE kv SET v = 2 WHERE k = 2;"                # writes y
    step tout "UPDATE kv SET v = 1 WHERE k = 1;"                 # T_out writes x over the lock: pivot -rw-> T_out
else
    step tout "UPDATE kv SET v = 1 WHERE k = 1;"                 # T_out: blind write of x
    step pivot "BEGIN ISOLATION LEVEL SERIALIZABLE;"
    step pivot "UPDATE kv SET v = 2 WHERE k = 2;"                # pivot: its snapshot, without T_out; writes y
fi

if [ "$MODE" != plain ]; then
    cat >"$W/hold.gdb" <<EOF
set pagination off
set confirm off
handle SIGUSR1 SIGUSR2 SIGINT SIGTERM SIGQUIT SIGALRM SIGPIPE SIGHUP nostop noprint pass
break ReleasePredicateLocks
shell touch $W/armed
continue
bt 5
shell touch $W/held
shell while [ ! -e $W/release ]; do sleep 0.05; done
delete
detach
quit
EOF
    "$GDB" -q -batch -p "$TOUT_PID" -x "$W/hold.gdb" >"$W/gdb.log" 2>&1 &
    for i in $(seq 1 600); do [ -e "$W/armed" ] && break; sleep 0.05; done
    [ -e "$W/armed" ] || { echo "gdb did not attach to $TOUT_PID, see $W/gdb.log" >&2; exit 2; }
    echo "gdb: breakpoint at ReleasePredicateLocks in T_out's backend (pid $TOUT_PID)"
    send tout "COMMIT;"; tout_commit=$n
    for i in $(seq 1 300); do [ -e "$W/held" ] && break; sleep 0.05; done
    [ -e "$W/held" ] || { echo "T_out never reached ReleasePredicateLocks, see $W/gdb.log" >&2; exit 2; }
    echo "gdb: T_out's COMMIT is held at $(grep '^#[0-9]' "$W/gdb.log" | sed -n 1,4p | sed 's/.* in \([A-Za-z_0-9]*\) .*/\1/' | paste -sd'<')"
else
    send tout "COMMIT;"; tout_commit=$n
    await tout "$tout_commit"
    printf '%s\n' "$OUT" | grep -qx COMMIT && committed=$((committed + 1))
fi

if [ "$MODE" = declared-ro ]; then
    step tin "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY;"
else
    step tin "BEGIN ISOLATION LEVEL SERIALIZABLE;"
fi
step tin "SELECT v FROM kv WHERE k = 1;"                         # T_in: its snapshot, with T_out (x = 1)
[ "$MODE" = window-rmw ] || step pivot "SELECT v FROM kv WHERE k = 1;"   # pivot reads x before T_out's write: pivot -rw-> T_out

release() {
    [ "$MODE" = plain ] && return 0
    touch "$W/release"
    echo "gdb: T_out let go; its COMMIT returns:"
    await tout "$tout_commit"
    printf '%s\n' "$OUT" | grep -qx COMMIT && committed=$((committed + 1))
    return 0
}
[ "$MODE" = pivot-late ] && release
commit pivot
case $MODE in control|declared-ro|pivot-late) ;; *) release;; esac
case $MODE in window-ro|declared-ro) ;; *) step tin "UPDATE kv SET v = 3 WHERE k = 3;";; esac
step tin "SELECT v FROM kv WHERE k = 2;"                         # T_in reads y before the pivot's write: T_in -rw-> pivot
case $MODE in control|declared-ro) release;; esac
commit tin

step setup "SELECT k, v FROM kv ORDER BY k;"
echo "committed: $committed of 3"
if [ "$committed" = 3 ]; then
    echo "NOT SERIALIZABLE: T_in read x = 1 (T_out's write) and y = 0 (before the pivot's write); the pivot read x = 0"
    echo "(before T_out's write): T_out -wr-> T_in -rw-> pivot -rw-> T_out, and all three committed"
    exit 1
fi
echo "serializable: SSI refused a transaction of the cycle"
exit 0
