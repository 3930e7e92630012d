#pragma once
// A peer of a test cluster that is no well-behaved svcd: this test process
// links to a member's node actor through a cluster gate of its own, with a
// certificate of the cluster's CA, and sends what a hostile holder of that
// certificate would (a hello under another node's id, shard messages for a
// shard it does not hold).

#include <memory>
#include <optional>
#include <string>

#include "actors/messages.hpp"

namespace svc::e2e {

class rogue_peer {
public:
  /// Presents `pki_dir`/`identity`.pem and .key (and trusts `pki_dir`/ca.pem) as node `identity`.
  rogue_peer(const std::string& pki_dir, const std::string& identity);
  ~rogue_peer();
  rogue_peer(const rogue_peer&) = delete;
  rogue_peer& operator=(const rogue_peer&) = delete;

  /// The node actor of member `node_id` at `cluster_address` (HOST:PORT); nullopt when the link fails.
  std::optional<actors::node_actor> link(const std::string& cluster_address, const std::string& node_id);
  /// `target`'s answer to a hand-over of `shard` (true: it took it); nullopt when none came.
  std::optional<bool> adopt(const actors::node_actor& target, uint16_t shard);
  /// `target`'s answer to the first (empty) page of a move of `shard` to it; nullopt when none came.
  std::optional<bool> begin_move(const actors::node_actor& target, uint16_t shard);
  /// `target`'s answer to "drop your copy of `shard`"; nullopt when none came.
  std::optional<bool> erase(const actors::node_actor& target, uint16_t shard);
  /// Says hello to `target` as node `claimed_id`, introducing this process's own node actor.
  void hello(const actors::node_actor& target, const std::string& claimed_id);

  struct parts;

private:
  std::unique_ptr<parts> parts_;
};

} // namespace svc::e2e
