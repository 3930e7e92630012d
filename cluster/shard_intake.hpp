#pragma once
// The receiving side of a shard move, behind the node actor: commits the
// pages of rows and the blob pieces the shard's owner sends (a move begins
// only under the record the owner wrote in etcd), resumes the
// shard's actors once the owner hands it over (and shows the move as
// committed here, since the shard's requests come here from then on), and
// drops it again when the move fails. Detached: blob writes and their fsync
// block its own thread.

#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "actors/shard_handover.hpp"
#include "clients/etcd_security.hpp"
#include "cluster/cluster_table.hpp"
#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"

namespace svc::cluster {

/// The intake's interface, declared with every other in messages.hpp.
using shard_intake_actor = actors::shard_intake_actor;

/// What the intake writes through; all outlive it.
struct shard_intake_links {
  cluster_table* table = nullptr;
  const persistence::tables* tables = nullptr;
  persistence::blob_store* blobs = nullptr;
  actors::store_actor store;
  actors::shard_handover_actor handover;
  actors::peer_router_actor router; ///< shows the moves that end here
  std::vector<std::string> etcd;     ///< where the moves are recorded
  clients::etcd_security etcd_security;
};

/// Most rows and bytes one page may carry: a bigger one is refused, not stored.
inline constexpr std::size_t max_rows_per_page = 100000;
inline constexpr std::size_t max_page_bytes = 64u << 20;

shard_intake_actor spawn_shard_intake(caf::actor_system& sys, shard_intake_links links);

} // namespace svc::cluster
