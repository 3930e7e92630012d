#include "cluster/cluster_gate.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <caf/binary_deserializer.hpp>

#include "cluster/basp_inspector.hpp"
#include "cluster/node_certificate.hpp"
#include "core/log.hpp"

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

namespace {

using state_ptr = std::shared_ptr<cluster_gate::state>;

std::string endpoint_text(const tcp::socket& s) {
  boost::system::error_code ec;
  auto ep = s.remote_endpoint(ec);
  return ec ? std::string{"an unknown address"} : ep.address().to_string() + ":" + std::to_string(ep.port());
}

} // namespace

/// One TLS connection to a peer, joined to one local socket CAF reads and
/// writes. Every handler runs on the connection's strand.
class gate_connection : public std::enable_shared_from_this<gate_connection> {
public:
  gate_connection(state_ptr gate, uint64_t id, peer_end end, tcp::socket socket, std::string expected_node)
    : gate_{std::move(gate)},
      id_{id},
      end_{end},
      expected_node_{std::move(expected_node)},
      where_{endpoint_text(socket)},
      timer_{socket.get_executor()},
      tls_{std::move(socket), gate_->tls},
      caf_{tls_.get_executor()},
      inspector_{end, gate_->node_actor.load(), gate_->node_id_size.load(), gate_->options.max_frame_payload} {}

  /// A peer that dialed this node: TLS handshake, then the local socket to CAF.
  void start_accepted() {
    arm_handshake_deadline();
    tls_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](boost::system::error_code ec) {
      if (ec)
        return self->close("no TLS handshake: " + ec.message());
      if (!self->prove_peer())
        return;
      self->caf_.async_connect(local::endpoint{self->gate_->socket_path}, [self](boost::system::error_code ec) {
        if (ec)
          return self->close("CAF's local socket refused: " + ec.message());
        self->start_pumps();
      });
    });
  }

  /// A peer this node dialed: the local socket CAF holds the other end of.
  void start_dialed(int caf_end) {
    boost::system::error_code ec;
    caf_.assign(local{}, caf_end, ec);
    if (ec) {
      ::close(caf_end);
      return close("cannot take CAF's end: " + ec.message());
    }
    arm_handshake_deadline();
    tls_.async_handshake(ssl::stream_base::client, [self = shared_from_this()](boost::system::error_code ec) {
      if (ec)
        return self->close("no TLS handshake: " + ec.message());
      if (self->prove_peer())
        self->start_pumps();
    });
  }

  /// Closes it on its own strand.
  void stop() {
    net::post(tls_.get_executor(), [self = shared_from_this()] { self->close("this node stops"); });
  }

  void close(const std::string& why) {
    if (closed_)
      return;
    closed_ = true;
    core::log_warn("cluster", "connection with " + (proven_.empty() ? where_ : "node " + proven_ + " at " + where_)
                                + " closed: " + why);
    boost::system::error_code ignored;
    timer_.cancel();
    tls_.next_layer().shutdown(tcp::socket::shutdown_both, ignored);
    tls_.next_layer().close(ignored);
    caf_.close(ignored);
    gate_->identities->release(id_);
    std::lock_guard lock{gate_->mutex};
    gate_->connections.erase(id_);
    if (end_ == peer_end::dialing)
      --gate_->accepted_open;
  }

private:
  void arm_handshake_deadline() {
    timer_.expires_after(gate_->options.handshake_timeout);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec && !self->handshaken_)
        self->close("no handshake within " + std::to_string(self->gate_->options.handshake_timeout.count()) + " ms");
    });
  }

  // The node the peer's certificate names; the connection closes unless it is a node to serve.
  bool prove_peer() {
    std::unique_ptr<X509, decltype(&X509_free)> cert{SSL_get1_peer_certificate(tls_.native_handle()), &X509_free};
    auto named = node_named_by(cert.get());
    if (!named)
      close("its certificate names no node");
    else if (*named == gate_->options.self_id)
      close("its certificate names this node");
    else if (!expected_node_.empty() && *named != expected_node_)
      close("its certificate names node " + *named + ", not " + expected_node_ + " who is listed there");
    else
      proven_ = *named;
    return !closed_;
  }

  void start_pumps() {
    read_peer();
    read_caf();
  }

  // Peer to CAF: whole frames, each checked, and the handshake's CAF node bound to the proven node.
  void read_peer() {
    tls_.async_read_some(net::buffer(from_peer_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
      if (self->closed_)
        return;
      if (ec)
        return self->close(ec == net::error::eof || ec == ssl::error::stream_truncated ? "the peer ended it"
                                                                                         : "reading: " + ec.message());
      self->pending_.append(self->from_peer_.data(), n);
      auto verdict = self->inspector_.inspect(self->pending_);
      if (verdict.handshake_node && !self->bind(*verdict.handshake_node))
        return;
      if (verdict.pass == 0) {
        if (!verdict.refusal.empty())
          return self->close("refused a frame: " + verdict.refusal);
        return self->read_peer();
      }
      auto out = std::make_shared<std::string>();
      if (verdict.pass == self->pending_.size())
        out->swap(self->pending_);
      else {
        out->assign(self->pending_, 0, verdict.pass);
        self->pending_.erase(0, verdict.pass);
      }
      net::async_write(self->caf_, net::buffer(*out),
                       [self, out, refusal = std::move(verdict.refusal)](boost::system::error_code ec, std::size_t) {
                         if (self->closed_)
                           return;
                         if (ec)
                           return self->close("CAF's end: " + ec.message());
                         if (!refusal.empty())
                           return self->close("refused a frame: " + refusal);
                         self->read_peer();
                       });
    });
  }

  // The CAF node id the peer's handshake names belongs to the proven node from now on.
  bool bind(const std::string& serialized) {
    caf::binary_deserializer source{static_cast<caf::execution_unit*>(nullptr), serialized.data(), serialized.size()};
    caf::node_id caf_node;
    if (auto err = source(caf_node); err || !caf_node) {
      close("its handshake names no CAF node");
      return false;
    }
    if (!gate_->identities->bind(caf_node, proven_, id_)) {
      close("its handshake claims the CAF node of another connection");
      return false;
    }
    handshaken_ = true;
    timer_.cancel();
    return true;
  }

  // CAF to peer: CAF's own frames, as they come.
  void read_caf() {
    caf_.async_read_some(net::buffer(from_caf_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
      if (self->closed_)
        return;
      if (ec)
        return self->close(ec == net::error::eof ? "this node ended it" : "CAF's end: " + ec.message());
      self->inspector_.note_outgoing({self->from_caf_.data(), n});
      net::async_write(self->tls_, net::buffer(self->from_caf_.data(), n),
                       [self](boost::system::error_code ec, std::size_t) {
                         if (self->closed_)
                           return;
                         if (ec)
                           return self->close("writing: " + ec.message());
                         self->read_caf();
                       });
    });
  }

  state_ptr gate_;
  uint64_t id_;
  peer_end end_;
  std::string expected_node_; ///< a dialed peer's node id; empty for one that dialed here
  std::string where_;
  std::string proven_; ///< the node its certificate names, once checked
  net::steady_timer timer_;
  ssl::stream<tcp::socket> tls_;
  local::socket caf_;
  basp_inspector inspector_;
  std::string pending_; ///< from the peer, not yet passed to CAF
  std::array<char, 64 * 1024> from_peer_;
  std::array<char, 64 * 1024> from_caf_;
  bool handshaken_ = false;
  bool closed_ = false;
};

namespace {

// Keeps `connection` where the gate's end can close it; false once the gate closed.
bool track(cluster_gate::state& gate, uint64_t id, const std::shared_ptr<gate_connection>& connection) {
  std::lock_guard lock{gate.mutex};
  if (gate.closed)
    return false;
  gate.connections.emplace(id, connection);
  return true;
}

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
        auto c = std::make_shared<gate_connection>(gate, id, peer_end::dialing, std::move(socket), std::string{});
        if (track(*gate, id, c))
          c->start_accepted();
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
      c->stop();
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
    auto c = std::make_shared<gate_connection>(gate, id, peer_end::dialed, std::move(*connecting), expected);
    if (!track(*gate, id, c)) {
      ::close(caf_end);
      return;
    }
    c->start_dialed(caf_end);
  });
}

} // namespace svc::cluster
