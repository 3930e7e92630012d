#pragma once
// The cluster's front door: every connection between nodes is TLS that this
// gate speaks (on the asio threads), and CAF's network layer sees only the
// plaintext, over a local socket of this process. CAF 0.17's own TLS could
// not do what a member must:
// - it proves only that a certificate is the CA's, never which node holds it;
// - its network thread makes a TLS context per socket and waits for a
//   handshake forever, with no cap on connections;
// - and it trusts a connected peer with every frame (basp_inspector.hpp).
// So the gate
// - takes a peer for the node its certificate names (node_certificate.hpp),
//   and a node it dials only if the certificate names the node expected there;
// - binds the CAF node id the peer's handshake claims to that node
//   (node_identities.hpp), which is how the node actor knows who sent what;
// - passes on only the frames that node may send;
// - bounds the connections it accepts and the time their handshakes take,
//   with one TLS context for all of them.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "cluster/node_identities.hpp"

namespace svc::cluster {

struct cluster_gate_options {
  std::string self_id;                ///< this node: a peer whose certificate names it is refused
  std::string ca_file, cert_file, key_file; ///< PEM: the cluster CA, this node's certificate and key
  std::size_t max_connections = 256;  ///< accepted connections open at once; more are closed at once
  std::chrono::milliseconds handshake_timeout{5000}; ///< TLS and CAF handshake of an accepted connection
  std::size_t max_frame_payload = 96u << 20; ///< a larger frame closes the connection (a shard page is at most 64 MiB)
};

class cluster_gate {
public:
  cluster_gate(boost::asio::io_context& io, cluster_gate_options options, std::shared_ptr<node_identities> identities);
  /// Closes the listener and every connection.
  ~cluster_gate();
  cluster_gate(const cluster_gate&) = delete;
  cluster_gate& operator=(const cluster_gate&) = delete;

  /// Loads the TLS context, binds `host:port` for the peers and the local
  /// socket CAF's doorman takes; false with `error` set.
  bool open(const std::string& host, uint16_t port, std::string& error);
  /// The port bound for the peers.
  uint16_t port() const;
  /// The listening local socket CAF accepts the gate's connections on (once; -1 after).
  int take_caf_listener();
  /// The actor peers may address (the published node actor), and the bytes
  /// of a serialized CAF node id; set before any connection is made.
  void set_node_actor(uint64_t actor_id, std::size_t node_id_size);
  /// The node that listens at `host:port`: a dial there needs a certificate naming it.
  void expect(const std::string& host, uint16_t port, const std::string& node_id);
  /// Dials `host:port` over TLS and joins it to `caf_end` (a local socket
  /// whose other end CAF reads), which the gate owns from now on and closes
  /// when the dial or the connection fails.
  void dial(int caf_end, const std::string& host, uint16_t port);

  struct state;

private:
  std::shared_ptr<state> state_;
};

} // namespace svc::cluster
