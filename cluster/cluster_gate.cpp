#include "cluster/cluster_gate.hpp"

#include <cstdlib>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/strand.hpp>

#include "cluster/gate_connection.hpp"
#include "cluster/gate_state.hpp"
#include "core/log.hpp"

namespace svc::cluster {
namespace {

void accept_next(const state_ptr& gate) {
  gate->acceptor.async_accept(net::make_strand(gate->io), [gate](boost::system::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted)
      return;
    if (!ec) {
      uint64_t id = 0;
      bool over_cap = false;
      {
        std::lock_guard lock{gate->mutex};
        over_cap = gate->accepted_open >= gate->options.max_connections;
        if (!over_cap) {
          ++gate->accepted_open;
          id = ++gate->next_connection;
        }
      }
      if (over_cap) {
        core::log_warn("cluster", "refused a connection from " + endpoint_text(socket) + ": "
                                    + std::to_string(gate->options.max_connections) + " are open");
        boost::system::error_code ignored;
        socket.close(ignored);
      } else {
        start_accepted(gate, id, std::move(socket));
      }
    }
    accept_next(gate);
  });
}

// The local socket CAF's doorman listens on, in a new 0700 directory.
bool make_caf_listener(cluster_gate::state& gate, std::string& error) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string{tmp && *tmp ? tmp : "/tmp"} + "/svc-cluster-XXXXXX";
  if (!::mkdtemp(dir.data())) {
    error = "cannot make a private directory for the cluster's local socket in " + dir;
    return false;
  }
  gate.socket_dir = dir;
  gate.socket_path = dir + "/caf.sock";
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (gate.socket_path.size() >= sizeof address.sun_path) {
    error = "the cluster's local socket path is too long: " + gate.socket_path;
    return false;
  }
  std::copy(gate.socket_path.begin(), gate.socket_path.end(), address.sun_path);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 64) != 0) {
    if (fd >= 0)
      ::close(fd);
    error = "cannot listen on " + gate.socket_path;
    return false;
  }
  gate.caf_listener = fd;
  return true;
}

} // namespace

cluster_gate::cluster_gate(net::io_context& io, cluster_gate_options options, std::shared_ptr<node_identities> identities)
  : state_{std::make_shared<state>(io, std::move(options), std::move(identities))} {}

cluster_gate::~cluster_gate() {
  std::map<uint64_t, std::weak_ptr<gate_connection>> open;
  {
    std::lock_guard lock{state_->mutex};
    state_->closed = true;
    open.swap(state_->connections);
  }
  // The acceptor's and connections' own threads close them.
  net::post(state_->io, [state = state_] {
    boost::system::error_code ignored;
    state->acceptor.close(ignored);
  });
  for (auto& [id, weak] : open)
    if (auto c = weak.lock())
      stop(c);
  if (state_->caf_listener >= 0)
    ::close(state_->caf_listener);
  if (!state_->socket_path.empty()) {
    ::unlink(state_->socket_path.c_str());
    ::rmdir(state_->socket_dir.c_str());
  }
}

bool cluster_gate::open(const std::string& host, uint16_t port, std::string& error) {
  auto& s = *state_;
  boost::system::error_code ec;
  s.tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3
                    | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  s.tls.load_verify_file(s.options.ca_file, ec);
  if (!ec)
    s.tls.use_certificate_chain_file(s.options.cert_file, ec);
  if (!ec)
    s.tls.use_private_key_file(s.options.key_file, ssl::context::pem, ec);
  if (!ec)
    s.tls.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert, ec);
  if (ec) {
    error = "the cluster certificates: " + ec.message();
    return false;
  }
  auto address = net::ip::make_address(host, ec);
  if (ec) {
    error = "--cluster-listen needs an IP address, not " + host;
    return false;
  }
  tcp::endpoint where{address, port};
  s.acceptor.open(where.protocol(), ec);
  if (!ec)
    s.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec)
    s.acceptor.bind(where, ec);
  if (!ec)
    s.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    error = "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message();
    return false;
  }
  if (!make_caf_listener(s, error))
    return false;
  accept_next(state_);
  return true;
}

uint16_t cluster_gate::port() const {
  boost::system::error_code ec;
  auto ep = state_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

int cluster_gate::take_caf_listener() { return std::exchange(state_->caf_listener, -1); }

void cluster_gate::set_node_actor(uint64_t actor_id, std::size_t node_id_size) {
  state_->node_actor = actor_id;
  state_->node_id_size = node_id_size;
}

void cluster_gate::expect(const std::string& host, uint16_t port, const std::string& node_id) {
  std::lock_guard lock{state_->mutex};
  state_->expected[host + ":" + std::to_string(port)] = node_id;
}

void cluster_gate::dial(int caf_end, const std::string& host, uint16_t port) {
  auto gate = state_;
  std::string expected;
  uint64_t id = 0;
  {
    std::lock_guard lock{gate->mutex};
    auto it = gate->expected.find(host + ":" + std::to_string(port));
    if (it != gate->expected.end())
      expected = it->second;
    id = ++gate->next_connection;
  }
  boost::system::error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (expected.empty() || ec) {
    core::log_warn("cluster", "not dialing " + host + ":" + std::to_string(port)
                                + (ec ? ": not an IP address" : ": no member is listed there"));
    ::close(caf_end);
    return;
  }
  tcp::socket socket{net::make_strand(gate->io)};
  auto connecting = std::make_shared<tcp::socket>(std::move(socket));
  connecting->async_connect(tcp::endpoint{address, port}, [gate, connecting, caf_end, id, expected, host,
                                                           port](boost::system::error_code ec) {
    if (ec) {
      core::log_warn("cluster", "cannot reach node " + expected + " at " + host + ":" + std::to_string(port) + ": "
                                  + ec.message());
      ::close(caf_end);
      return;
    }
    start_dialed(gate, id, std::move(*connecting), expected, caf_end);
  });
}

} // namespace svc::cluster
