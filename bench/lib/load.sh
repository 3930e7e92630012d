# shellcheck shell=bash
# Shell helpers that put load on a svcd that bench/lib/svcd.sh started: a
# team with raised limits, and many identical POSTs with exact counts.
# Source it after bench/lib/svcd.sh.

# Creates a team with CREDITS credits and a write key, and raises each
# BUCKET named after it (capacity 10000000, 600000000/min) so bench loads
# measure svcd, not 429s; sets team_id and write_key.
bench_team() {
  local credits=$1 bucket; shift
  team_id=$(json_string id <<<"$(svcctl team create --name bench --owner-email bench@example.test --credits "$credits")")
  [[ $team_id == team_* ]] || die "team create printed no team id"
  write_key=$(json_string key <<<"$(svcctl key create --team "$team_id" --scope write)")
  [[ $write_key == svc_live_* ]] || die "key create printed no svc_live_ key"
  for bucket in "$@"; do
    svcctl team limits --team "$team_id" --bucket "$bucket" --capacity 10000000 --per-minute 600000000 >/dev/null
  done
}

# POSTs BODY to the API path PATH COUNT times with key KEY, PARALLEL (64)
# requests at a time over keep-alive connections (one curl process), and
# prints how many answers had each status, one "STATUS COUNT" line each.
post_many() {
  local count=$1 path=$2 body=$3 key=$4 cfg=$tmp/post-many.cfg
  ((count > 0)) || return 0
  awk -v n="$count" -v u="$api_url$path" \
    'BEGIN { for (i = 0; i < n; i++) printf "url = \"%s\"\noutput = /dev/null\n", u }' >"$cfg"
  # A request curl could not complete counts as status 000 (its reason in $cfg.err), never ends the script.
  { curl -sS --no-progress-meter --parallel --parallel-max "${PARALLEL:-64}" --max-time 60 -H "X-Api-Key: $key" \
    -H 'Content-Type: application/json' -d "$body" -w '%{http_code}\n' -K "$cfg" 2>"$cfg.err" || true; } |
    sort | uniq -c | awk '{ print $2, $1 }'
}

# post_many, then dies unless every answer had status WANT (curl's errors shown).
post_all() {
  local want=$1 answers; shift
  answers=$(post_many "$@")
  [[ -z $answers || $answers == "$want $1" ]] ||
    die "POST $2: $1 requests answered: $(tr '\n' ' ' <<<"$answers"); $(grep '^curl:' "$tmp/post-many.cfg.err" | sort | uniq -c | head -3)"
}

# svc-bench create's default image: what a queued job is measured with.
bench_image='{"prompt":"a lighthouse at dusk","width":256,"height":256}'
