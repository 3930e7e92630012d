#include "cluster/gated_middleman.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <caf/io/basp_broker.hpp>
#include <caf/io/middleman.hpp>
#include <caf/io/middleman_actor_impl.hpp>
#include <caf/io/network/default_multiplexer.hpp>
#include <caf/io/network/doorman_impl.hpp>
#include <caf/io/network/scribe_impl.hpp>

namespace svc::cluster {
namespace {

namespace network = caf::io::network;

// CAF asks a socket for the port of its address family when it publishes,
// accepts and answers `get` queries, and aborts on a local socket (its
// port_of knows only IPv4 and IPv6): these servants answer for themselves.
constexpr uint16_t local_port = 1;

class local_scribe final : public network::scribe_impl {
public:
  using scribe_impl::scribe_impl;
  std::string addr() const override { return "cluster-gate"; }
  uint16_t port() const override { return local_port; }
};

class local_doorman final : public network::doorman_impl {
public:
  using doorman_impl::doorman_impl;

  bool new_connection() override {
    if (detached())
      return false; // the broker let go of it while the multiplexer still polled it
    auto& mpx = acceptor_.backend();
    auto fd = acceptor_.accepted_socket();
    network::nonblocking(fd, true);
    auto scribe = caf::make_counted<local_scribe>(mpx, fd);
    auto hdl = scribe->hdl();
    parent()->add_scribe(std::move(scribe));
    return doorman::new_connection(&mpx, hdl);
  }
  std::string addr() const override { return "cluster-gate"; }
  uint16_t port() const override { return local_port; }
};

class gated_middleman final : public caf::io::middleman_actor_impl {
public:
  gated_middleman(caf::actor_config& cfg, caf::actor basp, std::weak_ptr<cluster_gate> gate)
    : middleman_actor_impl(cfg, std::move(basp)), gate_{std::move(gate)} {}

  const char* name() const override { return "gated_middleman"; }

protected:
  caf::expected<caf::io::scribe_ptr> connect(const std::string& host, uint16_t port) override {
    auto gate = gate_.lock();
    int ends[2];
    if (!gate || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
      return caf::sec::cannot_connect_to_node;
    gate->dial(ends[1], host, port);
    network::nonblocking(ends[0], true);
    return caf::make_counted<local_scribe>(multiplexer(), ends[0]);
  }

  caf::expected<caf::io::doorman_ptr> open(uint16_t, const char*, bool) override {
    auto gate = gate_.lock();
    int fd = gate ? gate->take_caf_listener() : -1;
    if (fd < 0)
      return caf::sec::cannot_open_port; // published once
    network::nonblocking(fd, true);
    return caf::make_counted<local_doorman>(multiplexer(), fd);
  }

private:
  network::default_multiplexer& multiplexer() {
    return static_cast<network::default_multiplexer&>(system().middleman().backend());
  }

  std::weak_ptr<cluster_gate> gate_; ///< gone once the node stops: then nothing connects
};

} // namespace

caf::io::middleman_actor spawn_gated_middleman(caf::actor_system& sys, std::weak_ptr<cluster_gate> gate) {
  auto basp = sys.middleman().named_broker<caf::io::basp_broker>(caf::atom("BASP"));
  return sys.spawn<gated_middleman, caf::hidden>(caf::actor_cast<caf::actor>(basp), std::move(gate));
}

} // namespace svc::cluster
