#pragma once
// What the cluster gate and its connections share (cluster_gate.hpp): the
// TLS context, the listener, CAF's local socket, the nodes expected at each
// address and the open connections. Only cluster_gate.cpp and
// gate_connection.cpp see it.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl.hpp>

#include "cluster/cluster_gate.hpp"

namespace svc::cluster {
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using local = net::local::stream_protocol;

class gate_connection;

struct cluster_gate::state {
  state(net::io_context& io, cluster_gate_options options, std::shared_ptr<node_identities> identities)
    : io{io}, options{std::move(options)}, identities{std::move(identities)}, acceptor{io} {}

  net::io_context& io;
  cluster_gate_options options;
  std::shared_ptr<node_identities> identities;
  ssl::context tls{ssl::context::tls}; ///< one for every connection, both ways
  tcp::acceptor acceptor;
  std::string socket_dir;  ///< a 0700 directory of this process, holding the local socket
  std::string socket_path; ///< where CAF's doorman accepts the gate's connections
  int caf_listener = -1;
  std::atomic<uint64_t> node_actor{0};
  std::atomic<std::size_t> node_id_size{0};

  std::mutex mutex; // guards the members below
  std::map<std::string, std::string> expected; ///< "host:port" -> the node id listening there
  std::map<uint64_t, std::weak_ptr<gate_connection>> connections;
  std::size_t accepted_open = 0;
  uint64_t next_connection = 0;
  bool closed = false;
};

using state_ptr = std::shared_ptr<cluster_gate::state>;

/// `s`'s peer as `IP:PORT` for log lines.
std::string endpoint_text(const tcp::socket& s);

} // namespace svc::cluster
