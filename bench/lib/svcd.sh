# shellcheck shell=bash
# Shell helpers shared by the bench scripts that drive a real svcd: start it on
# a fresh data dir on loopback port 0, run svcctl against it, read JSON fields,
# and stop it cleanly. Source it after setting: tmp (a temp dir), svcd_bin,
# svcctl_bin, and a `die` function. Sets data, api_url, admin_url,
# admin_token and svcd_pid.

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

# Starts svcd on data dir NAME (fresh, or left by an earlier run) with extra
# options and returns at once; sets data and svcd_pid. A svcd.json that a
# killed run left behind is removed first, so await_svcd reads the new one.
launch_svcd() {
  local name=$1; shift
  data=$tmp/$name
  mkdir -p "$data"
  rm -f "$data/svcd.json"
  "$svcd_bin" --data-dir "$data" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 "$@" >>"$data.log" 2>&1 &
  svcd_pid=$!
}

# Waits (up to 30 s) for the svcd.json of the svcd launch_svcd started; sets
# api_url, admin_url and admin_token.
await_svcd() {
  local i
  api_url='' admin_url=''
  for ((i = 0; i < 3000; i++)); do
    kill -0 "$svcd_pid" 2>/dev/null || { tail -n 20 "$data.log" >&2; die "svcd exited during start"; }
    [[ ! -s $data/svcd.json ]] || api_url=$(json_string api_url <"$data/svcd.json")
    [[ -z $api_url ]] || break
    sleep 0.01
  done
  [[ -n $api_url ]] || die "svcd wrote no api_url to $data/svcd.json within 30s"
  [[ $api_url =~ ^http://(127\.[0-9.]+|localhost|\[::1\]):[0-9]+$ ]] || die "api_url '$api_url' is not loopback"
  admin_url=$(json_string admin_url <"$data/svcd.json")
  admin_token=$(cat "$data/admin.token")
}

# Starts svcd on data dir NAME with extra options and waits until it serves.
start_svcd() {
  launch_svcd "$@"
  await_svcd
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

# A field of svcd's /proc status (VmRSS, RssAnon, RssFile, VmHWM...), in MiB with one decimal.
proc_mib() { awk -v f="$1:" '$1 == f { printf "%.1f", $2 / 1024 }' "/proc/$svcd_pid/status"; }

# GET PATH on the admin listener with the admin token; the body on stdout. Dies when it does not answer 200.
admin_get() {
  curl -sf --max-time 60 -H "Authorization: Bearer $admin_token" "$admin_url$1" || die "GET $1 on the admin listener failed"
}

# The sum of every sample of metric NAME on /metrics (0 when it has none).
# /metrics asks every live actor to describe itself: slow with many actors.
metric() {
  local body
  body=$(admin_get /metrics) || exit 2
  awk -v m="$1" '$1 == m || index($1, m "{") == 1 { s += $NF } END { printf "%.0f\n", s }' <<<"$body"
}

# Jobs waiting for a worker or rendering, from /admin/overview (cheap with any number of jobs).
renders_queued_or_running() {
  local body renders
  body=$(admin_get /admin/overview) || exit 2
  renders=$(grep -o '"renders":{[^}]*}' <<<"$body")
  echo $(($(json_number queued <<<"$renders") + $(json_number running <<<"$renders")))
}

# Milliseconds since the epoch.
now_ms() { date +%s%3N; }

# The median of the numbers on stdin (the mean of the middle two for an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f\n", m }'; }

# Builds TARGETS in build_dir unless SKIP_BUILD=1 (scripts/build first when the
# default build dir is not configured yet); the log goes to build_dir/LOG.
build_targets() {
  local log=$1; shift
  [[ ${SKIP_BUILD:-0} != 1 ]] || return 0
  [[ -f $build_dir/CMakeCache.txt ]] || "$repo/scripts/build" || die "scripts/build failed"
  local args=()
  for t in "$@"; do args+=(--target "$t"); done
  cmake --build "$build_dir" -j"$(nproc)" "${args[@]}" >"$build_dir/$log" 2>&1 ||
    { grep -E 'error|Error' -A5 "$build_dir/$log" | head -60 >&2; die "build failed; log in $build_dir/$log"; }
}
