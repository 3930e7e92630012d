#pragma once
// The owner's side of moving a shard to another node, one move at a time on
// a thread of its own (its steps wait on the store, the new owner and etcd):
//  1. freeze the shard here (its requests answer 503 with Retry-After) and
//     wait for the ones running to finish;
//  2. release it: its actors here save what they hold and stop;
//  3. record the move in etcd (the new owner takes it only under that
//     record), copy its LMDB rows, then its blobs, to the new owner, page by page,
//     and compare the new owner's digest of its copy with this node's
//     (rows, blobs, bytes, SHA-256): a copy that differs fails the move;
//  4. name the new owner in etcd's shard map by compare-and-swap;
//  5. hand the shard over: this node forwards its stragglers there, and the
//     new owner resumes the shard's jobs and deliveries from the rows;
//  6. after a grace period, erase the shard's rows and blobs here (the next
//     move may start meanwhile).
// A failure before step 4 drops what the new owner received and resumes
// the shard here: the shard is never served by two nodes, nor by none.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <condition_variable>
#include <vector>

#include "actors/messages.hpp"
#include "actors/shard_handover.hpp"
#include "clients/etcd_security.hpp"
#include "cluster/cluster_table.hpp"
#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"
#include "schema/errors.hpp"

namespace svc::cluster {

struct shard_mover_links {
  caf::actor_system* system = nullptr;
  cluster_table* table = nullptr;
  const persistence::tables* tables = nullptr;
  persistence::blob_store* blobs = nullptr;
  actors::store_actor store;
  actors::shard_handover_actor handover;
  actors::peer_router_actor router;            ///< knows the peers' node actors; shows the moves
  std::vector<std::string> etcd;               ///< where the shard map is
  clients::etcd_security etcd_security;        ///< TLS and login toward etcd
  std::chrono::milliseconds drain_deadline{0}; ///< longest wait for the shard's running requests
  std::chrono::milliseconds grace{0};          ///< how long the old rows stay after the hand-over
};

/// Rows and blob bytes per message to the new owner.
inline constexpr std::size_t move_page_bytes = 4u << 20;
inline constexpr std::size_t move_blob_piece = 1u << 20;

class shard_mover {
public:
  explicit shard_mover(shard_mover_links links) : links_{std::move(links)} {}
  /// Waits for the move in progress: a move interrupted before the hand-over resumes the shard here.
  ~shard_mover();
  shard_mover(const shard_mover&) = delete;
  shard_mover& operator=(const shard_mover&) = delete;

  /// Starts moving `shard` to node `to` and fills in its first status; or
  /// says why it cannot start: `invalid_state` while another move runs or
  /// when this node does not hold the shard, `invalid_parameter` when `to`
  /// is not a live member other than this node.
  std::optional<schema::error_code> start(uint16_t shard, const std::string& to, actors::shard_move_status& status);

private:
  void run(actors::shard_move_status status);
  void report(const actors::shard_move_status& status) const;
  /// Erases this node's copy of a shard that moved away, after the grace period.
  void erase_later(actors::shard_move_status status);
  /// Sleeps `d` or until the mover is destroyed; false when destroyed.
  bool pause(std::chrono::milliseconds d);

  shard_mover_links links_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool running_ = false;          ///< a move runs (until it commits or fails)
  struct worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> finished = std::make_shared<std::atomic<bool>>(false);
  };
  std::vector<worker> workers_; ///< one per move, which goes on to erase after the grace period
};

} // namespace svc::cluster
