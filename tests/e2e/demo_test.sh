#!/usr/bin/env bash
# scripts/demo on the programs of an existing build (BUILD_DIR: nothing is
# built), twice on one fresh DEMO_DIR: each run ends naming a new PNG that
# exists and is a PNG, and the second run reuses the first run's svcd.
# Usage: demo_test.sh BUILD_DIR. Stops the svcd the demo leaves running.
set -euo pipefail
build_dir=$(cd "${1:?usage: demo_test.sh BUILD_DIR}" && pwd)
demo="$(cd "$(dirname "$0")/../.." && pwd)/scripts/demo"
dir=$(mktemp -d /tmp/svc-demo-test-XXXXXX)

svcd_pid() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid"])' "$dir/svcd.json"; }
stop_svcd() {
  local pid
  pid=$(svcd_pid 2>/dev/null) || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}
trap 'stop_svcd; rm -rf "$dir"' EXIT
fail() { echo "demo_test: $*" >&2; exit 1; }

# Runs the demo; prints the PNG path its output names after checking the file.
run_demo() {
  local out png
  out=$(DEMO_DIR="$dir" BUILD_DIR="$build_dir" "$demo" 2>&1) || fail "scripts/demo failed:"$'\n'"$out"
  printf '%s\n' "$out" >&2
  png=$(sed -n 's/^The image is at \(.*\.png\) ([0-9]* bytes).*/\1/p' <<<"$out")
  [ -n "$png" ] || fail "the output names no PNG"
  [ -f "$png" ] || fail "$png does not exist"
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$png is not a PNG"
  echo "$png"
}

first=$(run_demo)
pid=$(svcd_pid)
second=$(run_demo)
[ "$first" != "$second" ] || fail "the second run named the same image"
[ "$(svcd_pid)" = "$pid" ] || fail "the second run did not reuse svcd (pid $pid)"
echo "demo_test: two runs, one svcd, two PNGs: $first $second"
