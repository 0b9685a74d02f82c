#!/usr/bin/env bash
# isostress beside the peer checkers, each on its own format and the same file at the same level: Chronos/Aion
# (TimeKiller: SI and SER), AWDIT (RC, RA, CC) and Plume (RC, RA, TCC). Each pair runs RUNS times, alternating
# isostress and the peer, and a markdown table of median wall times (seconds, JVM start included) and verdicts is
# printed. How to build the peers: docs/benchmarks.md, "Against the peer checkers".
#
# usage: docs/bench/peers.sh [-w WORKLOAD] [-n RUNS] [-t TXNS] [-k KEYS] [-d DIR]
#   -w WORKLOAD  rw-register (default) or list-append: the stores' list-append histories (bench generate --workload
#            list-append), as Chronos JSON, against TimeKiller only (--data_model list; AWDIT and Plume take registers)
#   -n RUNS  runs per pair (default 5)
#   -t TXNS  transactions per generated history (default 100000)
#   -k KEYS  keys of the generated histories (default 100: with many more, the SI store's write skews are rare and
#            its history is often serializable, though not in commit order)
#   -d DIR   where the histories go (default a temporary directory, removed at the end)
# environment: TIMEKILLER_JAR (TimeKiller-jar-with-dependencies.jar), AWDIT (the awdit binary), PLUME_JAR
#   (Plume-1.0-SNAPSHOT-shaded.jar); a peer that is not set or not found is skipped with a note. ISOSTRESS (default:
#   the repository's launcher), ISOSTRESS_JAVA_OPTS and PEER_JAVA_OPTS (JVM options for the Java peers, e.g. -Xmx8g).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
isostress="${ISOSTRESS:-$here/isostress}"
runs=5 txns=100000 keys=100 dir="" workload=rw-register
while getopts "w:n:t:k:d:h" o; do
  case "$o" in
    w) workload="$OPTARG" ;;
    n) runs="$OPTARG" ;;
    t) txns="$OPTARG" ;;
    k) keys="$OPTARG" ;;
    d) dir="$OPTARG" ;;
    *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
if [ -z "$dir" ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi
case "$workload" in
  rw-register|list-append) ;;
  *) echo "unknown workload '$workload': use rw-register or list-append" >&2; exit 2 ;;
esac
mkdir -p "$dir"
read -r -a peer_java <<< "${PEER_JAVA_OPTS:-}"

have_timekiller=0 have_awdit=0 have_plume=0
if [ -n "${TIMEKILLER_JAR:-}" ] && [ -f "$TIMEKILLER_JAR" ]; then have_timekiller=1
else echo "note: TimeKiller skipped (set TIMEKILLER_JAR to TimeKiller-jar-with-dependencies.jar)" >&2; fi
if [ -n "${AWDIT:-}" ] && [ -x "$AWDIT" ]; then have_awdit=1
else echo "note: AWDIT skipped (set AWDIT to the awdit binary)" >&2; fi
if [ -n "${PLUME_JAR:-}" ] && [ -f "$PLUME_JAR" ]; then have_plume=1
else echo "note: Plume skipped (set PLUME_JAR to Plume-1.0-SNAPSHOT-shaded.jar)" >&2; fi

# The histories: a simulated SI store (SI, not serializable: write skews), its serializable twin and a read-committed
# store (not read atomic: fractured reads), as TimeKiller's JSON and as r(k,v,s,t) text (the same transactions: same
# seed); and, when AWDIT is there, its own causal history.
echo "generating $txns-transaction $workload histories in $dir ..." >&2
if [ "$workload" = list-append ]; then
  have_awdit=0 have_plume=0
  for store in si ser rc; do
    f="$dir/$store-la-$txns-k$keys.json"
    [ -s "$f" ] || "$isostress" bench generate --workload list-append --store "$store" --txns "$txns" --sessions 20 \
        --keys "$keys" --seed 1 --out "$f" >&2
  done
fi
for store in si ser rc; do
  [ "$workload" = list-append ] && break
  for fmt in chronos text; do
    ext=$([ "$fmt" = chronos ] && echo json || echo txt)
    f="$dir/$store-$txns-k$keys.$ext"
    [ -s "$f" ] || "$isostress" bench generate --store "$store" --txns "$txns" --sessions 20 --keys "$keys" --seed 1 \
        --format "$fmt" --out "$f" >&2
  done
done
if [ "$have_awdit" = 1 ] && [ ! -s "$dir/awdit-$txns.txt" ]; then
  # About five events a transaction (AWDIT's default mean transaction size).
  "$AWDIT" generate -e $((txns * 5)) -i causal "$dir/awdit-$txns.txt" >&2
fi

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.2f", m / 1e9}'; }

# Verdicts as words: isostress by exit status (0 valid, 1 invalid), each peer by what it prints.
iso_verdict() { case "$1" in 0) echo valid ;; 1) echo invalid ;; *) echo "error($1)" ;; esac; }
run_iso() { # FILE LEVEL
  local rc=0
  "$isostress" check --level "$2" "$1" >/dev/null 2>&1 || rc=$?
  iso_verdict "$rc"
}
run_timekiller() { # FILE SI|SER
  # Every generated register starts at 0, which TimeKiller needs told (its default initial value is null); lists
  # start empty, which it reads as that null.
  local out model=(--initial_value 0)
  [ "$workload" = list-append ] && model=(--data_model list)
  out="$(java "${peer_java[@]}" -jar "$TIMEKILLER_JAR" --history_path "$1" --consistency_model "$2" \
      "${model[@]}" 2>&1)" || { echo error; return; }
  if grep -q "^Do NOT satisfy" <<< "$out"; then echo invalid
  elif grep -q "^Satisfy $2" <<< "$out"; then echo valid
  else echo error; fi
}
run_awdit() { # FILE read-committed|read-atomic|causal
  local out
  out="$("$AWDIT" check -i "$2" "$1" 2>&1)" || { echo error; return; }
  if grep -q "^Inconsistent" <<< "$out"; then echo invalid
  elif grep -q "^Consistent" <<< "$out"; then echo valid
  else echo error; fi
}
run_plume() { # FILE RC|RA|TCC
  local out
  out="$(java "${peer_java[@]}" -jar "$PLUME_JAR" -i "$2" -t PLUME "$1" 2>&1)" || { echo error; return; }
  if grep -q "^REJECT" <<< "$out"; then echo invalid
  elif grep -q "^ACCEPT" <<< "$out"; then echo valid
  else echo error; fi
}

echo "| history | level | isostress (s) | verdict | peer | peer (s) | peer verdict |"
echo "|---|---|---:|---|---|---:|---|"
pair() { # FILE ISO_LEVEL PEER PEER_LEVEL
  local file="$1" level="$2" peer="$3" plevel="$4" i t0 iv pv
  local iso_times="" peer_times=""
  for ((i = 0; i < runs; i++)); do
    t0=$(now); iv=$(run_iso "$file" "$level"); iso_times+="$(( $(now) - t0 ))"$'\n'
    t0=$(now); pv=$("run_$peer" "$file" "$plevel"); peer_times+="$(( $(now) - t0 ))"$'\n'
  done
  printf "| %s | %s | %s | %s | %s %s | %s | %s |\n" "$(basename "$file")" "$level" \
      "$(printf %s "$iso_times" | median)" "$iv" "$peer" "$plevel" "$(printf %s "$peer_times" | median)" "$pv"
}

if [ "$have_timekiller" = 1 ]; then
  for store in si ser rc; do
    f="$dir/$store-$txns-k$keys.json"
    [ "$workload" = list-append ] && f="$dir/$store-la-$txns-k$keys.json"
    pair "$f" snapshot-isolation timekiller SI
    pair "$f" serializable timekiller SER
  done
fi
[ "$workload" = list-append ] && exit 0
texts=("$dir/si-$txns-k$keys.txt" "$dir/ser-$txns-k$keys.txt" "$dir/rc-$txns-k$keys.txt")
[ "$have_awdit" = 1 ] && texts+=("$dir/awdit-$txns.txt")
for f in "${texts[@]}"; do
  if [ "$have_awdit" = 1 ]; then
    pair "$f" read-committed awdit read-committed
    pair "$f" read-atomic awdit read-atomic
    pair "$f" causal awdit causal
  fi
  if [ "$have_plume" = 1 ]; then
    pair "$f" read-committed plume RC
    pair "$f" read-atomic plume RA
    pair "$f" causal plume TCC
  fi
done
