# The isostress watchdog (provision/Watchdog.java): cleans up after one harness once it has exited, whatever way it
# exited (SIGKILL included, which runs no Java code). Its stdin is a pipe from the harness; end of file means the
# harness is gone, as the kernel closes the pipe when the process dies. Arguments: the harness's pid, its temporary
# directory. Lines the harness writes:
#   log PATH        append what is done here (the current run's logs/harness.log)
#   iptables on     the harness is adding its chain ISOSTRESS-PID (off: it removed it)
#   docker on       the harness is creating containers or networks labelled isostress.owner=PID
# What belongs to the harness: processes whose command line names one of its data directories
# (TMP/isostress-KIND-PID-*, KIND a database's lowercase word such as pg or mariadb, see Leftovers) and their children (PostgreSQL's backends), the directories,
# containers and networks labelled isostress.owner=PID, and the iptables chain when it says so.
harness=$1 tmp=$2 log=/dev/null rules=off docker=off
trap '' INT QUIT HUP
while IFS= read -r line; do
  case $line in
    "log "*) log=${line#log } ;;
    "iptables "*) rules=${line#iptables } ;;
    "docker "*) docker=${line#docker } ;;
  esac
done
t0=$(date +%s%N)
# A process's descendants, depth first (PostgreSQL's backends, mariadb-install-db's mariadbd).
descendants() {
  for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done
}
mark="$tmp/isostress-[a-z]+-$harness-"
killed=0 quiet=0 pass=0
# Until no process of the harness is seen twice in a row (one may have been starting when the harness died), at
# most 40 passes (8 s). Each server is stopped first so that it forks no more, then killed with all its
# descendants: a postmaster killed alone leaves backends that take a moment to notice, and may still write into the
# data directory while it is being removed. (SIGKILL also ends a process the nemesis had paused.)
while [ $quiet -lt 2 ] && [ $pass -lt 40 ]; do
  pids=$(pgrep -f -- "$mark")
  if [ -z "$pids" ]; then
    quiet=$((quiet + 1))
  else
    quiet=0
    # shellcheck disable=SC2086
    kill -STOP $pids 2>/dev/null
    for p in $pids; do
      for q in $p $(descendants "$p"); do kill -KILL "$q" 2>/dev/null && killed=$((killed + 1)); done
    done
  fi
  pass=$((pass + 1))
  sleep 0.2
done
if [ "$rules" = on ]; then
  ipt=$(command -v iptables || echo /usr/sbin/iptables)
  i=0
  while [ $i -lt 100 ] && "$ipt" -w -D INPUT -j "ISOSTRESS-$harness" 2>/dev/null; do i=$((i + 1)); done
  "$ipt" -w -F "ISOSTRESS-$harness" 2>/dev/null
  "$ipt" -w -X "ISOSTRESS-$harness" 2>/dev/null
  rules="removed iptables chain ISOSTRESS-$harness, "
else
  rules=
fi
# Containers first, then the networks they were on. A create request the harness sent just before it died may still
# be carried out (dockerd does not cancel it when the client goes away), so the listing is repeated 0.5 s after it
# last found something, until one finds nothing (at most 20 listings). Only when the harness said it used Docker: each listing is
# a round trip to the engine.
ncont=0 nnet=0
if [ "$docker" = on ] && command -v docker >/dev/null 2>&1; then
  label="label=isostress.owner=$harness"
  found=1 i=0
  while [ -n "$found" ] && [ $i -lt 20 ]; do
    containers=$(timeout 20 docker ps -aq --filter "$label" 2>/dev/null)
    # shellcheck disable=SC2086
    [ -n "$containers" ] && timeout 60 docker rm -fv $containers >/dev/null 2>&1 \
      && ncont=$((ncont + $(echo $containers | wc -w)))
    networks=$(timeout 20 docker network ls -q --filter "$label" 2>/dev/null)
    # shellcheck disable=SC2086
    [ -n "$networks" ] && timeout 20 docker network rm $networks >/dev/null 2>&1 \
      && nnet=$((nnet + $(echo $networks | wc -w)))
    found=$containers$networks
    i=$((i + 1))
    [ -n "$found" ] && sleep 0.5
  done
fi
dirs=$(ls -d "$tmp/isostress-"* 2>/dev/null | grep -E "/isostress-[a-z]+-$harness-")
# A process that was exiting may still have had a file open: try again a few times.
i=0
while [ -n "$dirs" ] && [ $i -lt 10 ]; do
  # shellcheck disable=SC2086
  rm -rf $dirs 2>/dev/null
  # shellcheck disable=SC2086
  ls -d $dirs >/dev/null 2>&1 || break
  i=$((i + 1))
  sleep 0.2
done
ndirs=$(echo $dirs | wc -w)
if [ $killed -gt 0 ] || [ -n "$rules" ] || [ $ncont -gt 0 ] || [ $nnet -gt 0 ] || [ "$ndirs" -gt 0 ]; then
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ) watchdog: harness $harness exited without stopping what it started: killed $killed process(es), ${rules}removed $ncont container(s), $nnet network(s) and $ndirs data directory(ies) in $ms ms" >> "$log"
fi
