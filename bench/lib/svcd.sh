# Shell helpers shared by the bench scripts that drive a real svcd: start it on
# a fresh data dir on loopback port 0, run svcctl against it, read JSON fields,
# and stop it cleanly. Source it after setting: tmp (a temp dir), svcd_bin,
# svcctl_bin, and a `die` function. Sets data, api_url and svcd_pid.

# The value of the first "NAME": "string" member of the JSON on stdin.
json_string() {
  { grep -o "\"$1\"[[:space:]]*:[[:space:]]*\"[^\"]*\"" || true; } | head -n 1 | sed 's/.*"\([^"]*\)"$/\1/'
}

# The value of the first "NAME": number member of the JSON on stdin.
json_number() {
  { grep -o "\"$1\"[[:space:]]*:[[:space:]]*[0-9.eE+-]*" || true; } | head -n 1 | sed 's/.*:[[:space:]]*//'
}

svcctl() {
  local out
  out=$("$svcctl_bin" --data-dir "$data" "$@" 2>"$tmp/svcctl.err") || { cat "$tmp/svcctl.err" >&2; die "svcctl $* failed"; }
  printf '%s' "$out"
}

# Starts svcd on a fresh data dir NAME with extra options; sets data, api_url, svcd_pid.
start_svcd() {
  local name=$1 i; shift
  data=$tmp/$name
  mkdir -p "$data"
  "$svcd_bin" --data-dir "$data" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 "$@" >"$data.log" 2>&1 &
  svcd_pid=$!
  api_url=
  for ((i = 0; i < 300; i++)); do
    kill -0 "$svcd_pid" 2>/dev/null || { tail -n 20 "$data.log" >&2; die "svcd exited during start"; }
    [[ ! -s $data/svcd.json ]] || api_url=$(json_string api_url <"$data/svcd.json")
    [[ -z $api_url ]] || break
    sleep 0.1
  done
  [[ -n $api_url ]] || die "svcd wrote no api_url to $data/svcd.json within 30s"
  [[ $api_url =~ ^http://(127\.[0-9.]+|localhost|\[::1\]):[0-9]+$ ]] || die "api_url '$api_url' is not loopback"
}

# Sends SIGTERM to svcd and waits up to 30 s for a clean exit (status 0), then SIGKILLs it.
stop_svcd() {
  local pid=$svcd_pid i rc=0
  svcd_pid=
  [[ -n $pid ]] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "svcd (pid $pid) still running 30s after SIGTERM; sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || rc=$?
  ((rc == 0)) || echo "svcd exited with status $rc after SIGTERM (expected 0)" >&2
}

# svcd's peak resident set so far (VmHWM), in MiB.
peak_rss_mib() { awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$svcd_pid/status"; }
