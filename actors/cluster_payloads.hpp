#pragma once
// The cluster's wire types: forwarded requests and their answers, members and
// the shard map as etcd holds them, `/admin/cluster`'s view, and the pieces of
// a moving shard. Each is described once (SVC_DESCRIBE), which gives its `inspect`.

#include <cstdint>
#include <string>
#include <vector>

#include "core/described.hpp"

namespace svc::actors {

/// An HTTP request a node accepted from a client and routes to the node that
/// owns its team: what that node's pipeline needs to answer it as if the
/// client had sent it there. Bodies travel whole; streamed ones (uploads)
/// never do (the accepting node redirects those).
struct forwarded_request {
  std::string request_id;          ///< `req_...`, assigned by the accepting node
  bool admin = false;              ///< from the admin listener: the owner runs it through its own, token check included
  std::string method;              ///< e.g. "GET"
  std::string target;              ///< path and query
  std::vector<std::string> fields; ///< header names and values, alternating, in arrival order
  std::string body;
  std::string client_ip;           ///< the TCP peer the accepting node saw
  std::string client_address;      ///< the client's key there (its anonymous bucket)
  uint32_t http_version = 11;
};
SVC_DESCRIBE(forwarded_request, (request_id, admin, method, target, fields, body, client_ip, client_address, http_version))

/// The owner's answer to a forwarded request, ready for the wire (transport.hpp's `outgoing_response`).
struct forwarded_response {
  std::string head; ///< status line and fields, without `Connection`
  std::string body;
  bool keep_alive = true;
  /// The owner found the request's API key valid: only this makes the
  /// accepting node vouch for the key (cluster/vouched_keys.hpp), since an
  /// owner answers some requests (400, 404, 429) before it authenticates.
  bool key_authenticated = false;
};
SVC_DESCRIBE(forwarded_response, (head, body, keep_alive, key_authenticated))

/// One forwarded request under the ticket its answer comes back with.
struct forwarded_call {
  uint64_t ticket = 0;
  forwarded_request request;
};
SVC_DESCRIBE(forwarded_call, (ticket, request))

/// The requests one node forwards to another at once: those its HTTP
/// threads accepted while the previous ones were on their way, so a busy
/// link carries one message, and wakes each side once, for several.
struct forwarded_calls {
  std::vector<forwarded_call> calls;
};
SVC_DESCRIBE(forwarded_calls, (calls))

/// The owner's answer under the ticket of its request.
struct forwarded_answer {
  uint64_t ticket = 0;
  forwarded_response response;
};
SVC_DESCRIBE(forwarded_answer, (ticket, response))

/// The answers an owner sends back at once (those ready together).
struct forwarded_answers {
  std::vector<forwarded_answer> answers;
};
SVC_DESCRIBE(forwarded_answers, (answers))

/// A cluster member as etcd lists it while its lease lives.
struct node_info {
  std::string id;              ///< `--node-id`
  std::string cluster_address; ///< HOST:PORT of its node actor (mutual TLS)
  std::string api_url;         ///< its public base URL, where redirected clients go
  std::string admin_url;
};
SVC_DESCRIBE(node_info, (id, cluster_address, api_url, admin_url))

/// Which node owns each of the 256 shards (`owners[shard]`, a node id).
struct shard_map {
  int64_t revision = 0; ///< etcd's revision of the map's last change; 0: there is no map
  std::vector<std::string> owners;
};
SVC_DESCRIBE(shard_map, (revision, owners))

/// What a node knows of its cluster: the members alive and the shard map.
struct cluster_view {
  std::vector<node_info> nodes;
  shard_map map;
};
SVC_DESCRIBE(cluster_view, (nodes, map))

/// How this node sees one other node (`/admin/cluster`).
struct peer_status {
  node_info node;
  std::string state;      ///< "connecting", "up" or "down"
  uint64_t in_flight = 0; ///< requests forwarded to it and not answered yet
  uint64_t forwarded = 0; ///< requests forwarded to it since this node started
  uint64_t failed = 0;    ///< of those, failed for want of an answer (503 owner_unavailable)
  std::string last_error; ///< why the last connection attempt or link failed
};
SVC_DESCRIBE(peer_status, (node, state, in_flight, forwarded, failed, last_error))

/// One move of a shard from this node to another, as `/admin/cluster` shows it.
struct shard_move_status {
  uint16_t shard = 0;
  std::string to;        ///< the node id it moves to
  std::string state;     ///< "moving", "committed" (the new owner serves it), "done" (erased here) or "failed"
  uint64_t rows = 0;     ///< LMDB rows copied
  uint64_t blobs = 0;    ///< blobs copied
  uint64_t bytes = 0;    ///< bytes of rows and blobs copied
  int64_t frozen_ms = 0; ///< how long the shard answered 503 here
  std::string error;     ///< why it failed
};
SVC_DESCRIBE(shard_move_status, (shard, to, state, rows, blobs, bytes, frozen_ms, error))

/// A node's view of its cluster with its peers' states (`/admin/cluster`).
struct cluster_status {
  std::string node_id;
  cluster_view view;
  std::vector<peer_status> peers;
  std::vector<shard_move_status> moves; ///< the moves this node started, newest last
};
SVC_DESCRIBE(cluster_status, (node_id, view, peers, moves))

/// One LMDB row of a shard on its way to the shard's new owner: the table's
/// index (persistence::table), the key and the stored bytes.
struct shard_row_v1 {
  uint8_t table = 0;
  std::string key;
  std::string value;
};
SVC_DESCRIBE(shard_row_v1, (table, key, value))

/// A page of a moving shard's rows. The first page also clears whatever
/// rows of the shard the new owner had (a move that failed there before).
struct shard_rows_v1 {
  uint16_t shard = 0;
  bool first = false;
  std::vector<shard_row_v1> rows;
};
SVC_DESCRIBE(shard_rows_v1, (shard, first, rows))

/// A piece of one blob of a moving shard, in order from offset 0; `last`
/// makes the blob whole on the new owner.
struct blob_piece_v1 {
  uint16_t shard = 0;
  std::string name;
  uint64_t offset = 0;
  std::string bytes;
  bool last = false;
};
SVC_DESCRIBE(blob_piece_v1, (shard, name, offset, bytes, last))

/// What a node holds of a shard (persistence/shard_digest.hpp): the new
/// owner's answer before the old one changes the map.
struct shard_digest_v1 {
  uint16_t shard = 0;
  uint64_t rows = 0;
  uint64_t blobs = 0;
  uint64_t bytes = 0;
  std::string sha256;
};
SVC_DESCRIBE(shard_digest_v1, (shard, rows, blobs, bytes, sha256))

} // namespace svc::actors
