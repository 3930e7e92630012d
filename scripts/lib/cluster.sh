# shellcheck shell=bash
# Shell helpers that start a cluster on loopback, shared by
# scripts/cluster-demo and bench/run-cluster-bench: a CA and a node
# certificate, one etcd, svcd nodes that join it, and stopping all of it.
# Source it after setting `svcd` and `svcctl` (the programs); every process
# started is recorded in `cluster_pids` for `stop_cluster`.

cluster_pids=()

cluster_die() { echo "cluster: $*" >&2; exit 1; }

# A free TCP port on 127.0.0.1 (bound, then released).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The field PATH (dot-separated, numbers index arrays) of the JSON on stdin.
json_field() {
  python3 -c 'import json,sys
d=json.load(sys.stdin)
for k in sys.argv[1].split("."): d=d[int(k)] if k.isdigit() else d[k]
print(d)' "$1"
}

# Writes into DIR a throwaway CA (ca.pem) and, for each node ID, ID.pem and
# ID.key: a certificate for 127.0.0.1 that serves as both TLS server and
# client and names the node (the SAN URI urn:svc:node:ID, which the other
# nodes take it for); and admin.token, the cluster's one admin token, which
# every node is given (the owner of a team checks the token of an admin
# request forwarded to it).
make_cluster_pki() { # DIR ID...
  local pki=$1 id
  shift
  mkdir -p "$pki"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=svc cluster CA" \
    -keyout "$pki/ca.key" -out "$pki/ca.pem" 2>/dev/null
  for id in "$@"; do
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=svc node $id" \
      -keyout "$pki/$id.key" -out "$pki/$id.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,URI:urn:svc:node:%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$id" >"$pki/$id.ext"
    openssl x509 -req -in "$pki/$id.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
      -extfile "$pki/$id.ext" -out "$pki/$id.pem" 2>/dev/null
  done
  (umask 077 && openssl rand -hex 32 >"$pki/admin.token")
  chmod 600 "$pki"/*.key
}

# Starts etcd with its data in DIR/etcd and waits until it is healthy; sets etcd_endpoint.
start_etcd() { # DIR
  local dir=$1 port peer
  port=$(free_port)
  peer=$(free_port)
  etcd --name svc --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$port" \
    --advertise-client-urls "http://127.0.0.1:$port" --listen-peer-urls "http://127.0.0.1:$peer" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer" --initial-cluster "svc=http://127.0.0.1:$peer" \
    >"$dir/etcd.log" 2>&1 &
  cluster_pids+=($!)
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -sf "http://127.0.0.1:$port/health" >/dev/null || { tail -5 "$dir/etcd.log" >&2; cluster_die "etcd did not start"; }
  etcd_endpoint=127.0.0.1:$port
}

# Starts node ID with its data in DIR/ID, certificates from PKI, the first map
# over BOOTSTRAP; more svcd options may follow. Returns at once.
start_node() { # DIR ID PKI BOOTSTRAP [options...]
  local dir=$1 id=$2 pki=$3 bootstrap=$4
  shift 4
  mkdir -p "$dir/$id"
  rm -f "$dir/$id/svcd.json"
  install -m 600 "$pki/admin.token" "$dir/$id/admin.token"
  "$svcd" --data-dir "$dir/$id" --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0 \
    --etcd "$etcd_endpoint" --node-id "$id" --cluster-listen 127.0.0.1:0 \
    --cluster-ca "$pki/ca.pem" --cluster-cert "$pki/$id.pem" --cluster-key "$pki/$id.key" \
    --cluster-bootstrap "$bootstrap" "$@" >"$dir/$id/svcd.log" 2>&1 </dev/null &
  cluster_pids+=($!)
}

# Waits until node DIR/ID wrote svcd.json, has the map and links up to LINKS others.
await_node() { # DIR ID LINKS
  local dir=$1 id=$2 links=$3 up=-1
  for _ in $(seq 1 150); do [ -s "$dir/$id/svcd.json" ] && break; sleep 0.1; done
  [ -s "$dir/$id/svcd.json" ] || { tail -5 "$dir/$id/svcd.log" >&2; cluster_die "$id did not start"; }
  for _ in $(seq 1 300); do
    up=$("$svcctl" --data-dir "$dir/$id" cluster | python3 -c 'import json,sys; d=json.load(sys.stdin)
print(sum(p["state"] == "up" for p in d.get("peers", [])) if d.get("map_revision", 0) > 0 else -1)')
    [ "$up" -ge "$links" ] && return 0
    sleep 0.1
  done
  "$svcctl" --data-dir "$dir/$id" cluster >&2
  cluster_die "$id did not link to $links others"
}

# The public API URL of node DIR/ID.
node_api() { json_field api_url <"$1/$2/svcd.json"; }

# Stops every process started here (SIGTERM, SIGKILL after 10 s).
stop_cluster() {
  local pid
  for pid in "${cluster_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${cluster_pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  cluster_pids=()
}
