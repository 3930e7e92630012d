#pragma once
// The values actor messages carry, beyond the stored records of schema/.
// Each is described once (SVC_DESCRIBE), which gives CAF its `inspect`: any
// message may be serialised, and in a cluster cross to another node.
// `messages.hpp` lists the interfaces that send them.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/described.hpp"
#include "persistence/write_batch.hpp"
#include "schema/job_record.hpp"
#include "schema/rate_buckets.hpp"
#include "schema/records.hpp"
#include "schema/webhook_records.hpp"
#include "schema/file_record.hpp"

namespace svc::actors {

/// A team's operator overrides of bucket classes, by class name.
using bucket_overrides = std::map<std::string, schema::bucket_limits>;

/// What a live actor says about itself for `/admin/actors`.
struct actor_status {
  std::string state;    ///< one line, e.g. "reads=1199/1200 images_post=120/120"
  uint64_t mailbox = 0; ///< messages waiting
};
SVC_DESCRIBE(actor_status, (state, mailbox))

/// One row of `/admin/actors`.
struct actor_summary {
  std::string kind, id, team, state;
  uint64_t mailbox = 0;
  int64_t age_ms = 0;
};
SVC_DESCRIBE(actor_summary, (kind, id, team, state, mailbox, age_ms))

/// Filter of `/admin/actors`: empty strings match everything.
struct actor_filter {
  std::string kind, team;
  uint64_t limit = 100;
};
SVC_DESCRIBE(actor_filter, (kind, team, limit))

/// A rate-limit verdict and the values of the X-RateLimit-* headers.
struct rate_decision {
  bool allowed = false;
  int64_t limit = 0;       ///< bucket capacity
  int64_t remaining = 0;   ///< whole tokens left after this request
  int64_t reset_epoch = 0; ///< Unix second at which the bucket is full again
  int64_t retry_after = 0; ///< seconds until one token is back (when refused)
  std::string bucket;      ///< class name, for the 429 message
};
SVC_DESCRIBE(rate_decision, (allowed, limit, remaining, reset_epoch, retry_after, bucket))

/// A newly issued key: its record and the plaintext, shown once.
struct issued_key {
  schema::api_key_record record;
  std::string plaintext;
  schema::api_key_record previous; ///< the rotated key (empty id on create)
};
SVC_DESCRIBE(issued_key, (record, plaintext, previous))

/// A new team and its opening balance.
struct new_team {
  std::string name, owner_email;
  int64_t credits = 0;
};
SVC_DESCRIBE(new_team, (name, owner_email, credits))

/// An operator's (or, for the threshold, the team's) change to a team: only
/// the fields given change, and only if every one of them is valid.
struct team_update {
  std::optional<std::string> name, owner_email, default_api_version;
  std::optional<int64_t> balance_low_threshold;
};
SVC_DESCRIBE(team_update, (name, owner_email, default_api_version, balance_low_threshold))

/// A create for a team's ledger to admit: the hold of the price and the rows
/// that make the job exist, committed in one transaction, so an acknowledged
/// create has its job, its hold and its idempotency record, or none of them.
struct admission {
  std::string job_id;
  int64_t credits = 0;
  persistence::write_batch writes; ///< the job's rows and the idempotency record
  std::string idempotency_key;     ///< its `idempotency` table key; empty without the header
  schema::correlation cause;       ///< the create request; a `usage.balance_low` the hold causes carries it
};
SVC_DESCRIBE(admission, (job_id, credits, writes, idempotency_key, cause))

/// What became of an admission.
struct admission_result {
  /// An earlier create holds the idempotency key: nothing was admitted and
  /// `earlier` is its stored answer (the caller compares request hashes).
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::balance_record balance; ///< after the hold
};
SVC_DESCRIBE(admission_result, (replayed, earlier, balance))

/// A job's end for its team's ledger: charge or refund the hold, and commit
/// the job's terminal rows with it, so a job is settled exactly once.
struct settlement {
  std::string job_id;
  schema::hold_status to = schema::hold_status::charged; ///< `charged` or `refunded`
  schema::job_kind kind = schema::job_kind::image;       ///< for the usage row (when charged)
  int64_t outputs = 0;                                   ///< images produced (when charged)
  core::time_point at;                                   ///< the usage day is this UTC day
  persistence::write_batch writes;                       ///< the job's terminal rows
};
SVC_DESCRIBE(settlement, (job_id, to, kind, outputs, at, writes))

/// A create for the job directory: the job as it will be stored (`queued`)
/// and, under an `Idempotency-Key`, the record that replays its answer.
struct job_admission {
  schema::job_record job;
  std::optional<schema::idempotency_record> idempotency;
};
SVC_DESCRIBE(job_admission, (job, idempotency))

/// What a render produced, as the worker stored it.
struct rendered_outputs {
  std::vector<schema::job_output> outputs;
};
SVC_DESCRIBE(rendered_outputs, (outputs))

/// A new webhook endpoint, complete (id, secret, times), and under an
/// `Idempotency-Key` the record that replays the create's answer.
struct endpoint_creation {
  schema::webhook_endpoint_record endpoint;
  std::optional<schema::idempotency_record> idempotency;
};
SVC_DESCRIBE(endpoint_creation, (endpoint, idempotency))

/// What became of a creation: `replayed` with the earlier answer, or created.
struct endpoint_created {
  bool replayed = false;
  schema::idempotency_record earlier;
  schema::webhook_endpoint_record endpoint;
};
SVC_DESCRIBE(endpoint_created, (replayed, earlier, endpoint))

/// A PATCH of an endpoint: only the fields present change (validated by the caller).
struct endpoint_patch {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events; ///< `["*"]` already expanded
  std::optional<std::map<std::string, std::string>> metadata;
  std::optional<bool> is_active;                   ///< true re-enables and resets the failure count
};
SVC_DESCRIBE(endpoint_patch, (url, events, metadata, is_active))

/// An upload to store: the record (all but `bytes` and `sha256`, which the
/// writer fills in from the bytes) and the bytes, shared so no message copies them.
struct file_upload {
  schema::file_record record;
  std::shared_ptr<const std::string> bytes;
};
SVC_DESCRIBE(file_upload, (record, bytes))

/// How far a directory's recovery at start has come (`/readyz`).
struct recovery_status {
  bool done = false;      ///< everything found at start is back in memory
  int64_t recovered = 0;  ///< what it brought back so far (jobs, or delivery tasks and events)
};
SVC_DESCRIBE(recovery_status, (done, recovered))

/// The answer to a test fire.
struct test_fire {
  std::string endpoint_id;
  std::string event_id;
  bool enqueued = false; ///< false when the endpoint is disabled
};
SVC_DESCRIBE(test_fire, (endpoint_id, event_id, enqueued))

/// An HTTP request a node accepted from a client and routes to the node that
/// owns its team: what that node's pipeline needs to answer it as if the
/// client had sent it there. Bodies travel whole; streamed ones (uploads)
/// never do (the accepting node redirects those).
struct forwarded_request {
  std::string request_id;          ///< `req_...`, assigned by the accepting node
  bool admin = false;              ///< from the admin listener, whose token the accepting node checked
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
};
SVC_DESCRIBE(forwarded_response, (head, body, keep_alive))

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

} // namespace svc::actors
