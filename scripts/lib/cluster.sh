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
# request forwarded to it). For etcd: etcd-server.pem/.key (its HTTPS
# certificate), etcd-client.pem/.key (what the nodes show it; no CommonName,
# which etcd 3.4's JSON gateway refuses) and etcd.password, the password of
# the etcd user `svc` the nodes log in as.
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
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=etcd" \
    -keyout "$pki/etcd-server.key" -out "$pki/etcd-server.csr" 2>/dev/null
  # clientAuth too: etcd's JSON gateway dials etcd's own gRPC port with this certificate.
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' >"$pki/etcd-server.ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/O=svc" \
    -keyout "$pki/etcd-client.key" -out "$pki/etcd-client.csr" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' >"$pki/etcd-client.ext"
  for id in etcd-server etcd-client; do
    openssl x509 -req -in "$pki/$id.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
      -extfile "$pki/$id.ext" -out "$pki/$id.pem" 2>/dev/null
  done
  (umask 077 && openssl rand -hex 32 >"$pki/admin.token" && openssl rand -hex 16 >"$pki/etcd.password" &&
    openssl rand -hex 16 >"$pki/etcd-root.password")
  chmod 600 "$pki"/*.key
}

# Starts etcd with its data in DIR/etcd as production runs it: HTTPS with the
# certificates of make_cluster_pki PKI, client certificates required, and
# auth enabled with a user `svc` that may read and write /svc/ only. Waits
# until it is healthy; sets etcd_endpoint.
start_etcd() { # DIR PKI
  local dir=$1 pki=$2 port peer
  port=$(free_port)
  peer=$(free_port)
  etcd --name svc --data-dir "$dir/etcd" --listen-client-urls "https://127.0.0.1:$port" \
    --advertise-client-urls "https://127.0.0.1:$port" --listen-peer-urls "http://127.0.0.1:$peer" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer" --initial-cluster "svc=http://127.0.0.1:$peer" \
    --cert-file "$pki/etcd-server.pem" --key-file "$pki/etcd-server.key" \
    --client-cert-auth --trusted-ca-file "$pki/ca.pem" >"$dir/etcd.log" 2>&1 &
  cluster_pids+=($!)
  local tls=(--cacert "$pki/ca.pem" --cert "$pki/etcd-client.pem" --key "$pki/etcd-client.key")
  for _ in $(seq 1 100); do
    curl -sf "${tls[@]}" "https://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -sf "${tls[@]}" "https://127.0.0.1:$port/health" >/dev/null ||
    { tail -5 "$dir/etcd.log" >&2; cluster_die "etcd did not start"; }
  local ctl=(etcdctl --endpoints "https://127.0.0.1:$port" "${tls[@]}")
  {
    "${ctl[@]}" user add root --new-user-password="$(cat "$pki/etcd-root.password")" &&
      "${ctl[@]}" role add root && "${ctl[@]}" user grant-role root root &&
      "${ctl[@]}" role add svc && "${ctl[@]}" role grant-permission svc --prefix=true readwrite /svc/ &&
      "${ctl[@]}" user add svc --new-user-password="$(cat "$pki/etcd.password")" &&
      "${ctl[@]}" user grant-role svc svc && "${ctl[@]}" auth enable
  } >"$dir/etcd-auth.log" 2>&1 || { cat "$dir/etcd-auth.log" >&2; cluster_die "etcd's users could not be set up"; }
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
    --etcd "$etcd_endpoint" --etcd-ca "$pki/ca.pem" --etcd-cert "$pki/etcd-client.pem" \
    --etcd-key "$pki/etcd-client.key" --etcd-user svc --etcd-password-file "$pki/etcd.password" \
    --node-id "$id" --cluster-listen 127.0.0.1:0 \
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
