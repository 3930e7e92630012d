#pragma once
// Which cluster node each CAF node is: the cluster gate binds the CAF node
// id a peer's handshake names to the node id its certificate proved, for as
// long as that connection lives; the node actor looks up the sender of
// every message here and serves only proven nodes, each as itself.
// Thread-safe: the gate binds on asio threads, the node actor reads on CAF's.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <caf/node_id.hpp>

namespace svc::cluster {

class node_identities {
public:
  /// Binds `caf_node` to `node_id` for connection `connection`; false (and
  /// nothing bound) when another live connection holds `caf_node`: a second
  /// connection that claims a connected CAF node is an impostor.
  bool bind(const caf::node_id& caf_node, const std::string& node_id, uint64_t connection);
  /// Connection `connection` ended: what it bound is forgotten.
  void release(uint64_t connection);
  /// The proven node id of `caf_node`; nullopt when no live connection proved one.
  std::optional<std::string> node_of(const caf::node_id& caf_node) const;

private:
  struct binding {
    std::string node_id;
    uint64_t connection;
  };
  mutable std::mutex mutex_;
  std::map<caf::node_id, binding> bound_;
};

} // namespace svc::cluster
