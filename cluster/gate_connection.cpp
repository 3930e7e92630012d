#include "cluster/gate_connection.hpp"

#include <array>

#include <unistd.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <caf/binary_deserializer.hpp>

#include "cluster/basp_inspector.hpp"
#include "cluster/node_certificate.hpp"
#include "core/log.hpp"

namespace svc::cluster {

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

} // namespace

std::string endpoint_text(const tcp::socket& s) {
  boost::system::error_code ec;
  auto ep = s.remote_endpoint(ec);
  return ec ? std::string{"an unknown address"} : ep.address().to_string() + ":" + std::to_string(ep.port());
}

void start_accepted(const state_ptr& gate, uint64_t id, tcp::socket socket) {
  auto c = std::make_shared<gate_connection>(gate, id, peer_end::dialing, std::move(socket), std::string{});
  if (track(*gate, id, c))
    c->start_accepted();
}

void start_dialed(const state_ptr& gate, uint64_t id, tcp::socket socket, std::string expected_node, int caf_end) {
  auto c = std::make_shared<gate_connection>(gate, id, peer_end::dialed, std::move(socket), std::move(expected_node));
  if (!track(*gate, id, c)) {
    ::close(caf_end);
    return;
  }
  c->start_dialed(caf_end);
}

void stop(const std::shared_ptr<gate_connection>& connection) { connection->stop(); }

} // namespace svc::cluster
