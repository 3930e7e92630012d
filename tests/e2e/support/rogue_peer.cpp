#include "support/rogue_peer.hpp"

#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/binary_serializer.hpp>
#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/message_types.hpp"
#include "cluster/cluster_gate.hpp"
#include "cluster/gated_middleman.hpp"
#include "cluster/node_identities.hpp"
#include "tests/support/spawn_behavior.hpp"

namespace svc::e2e {
using namespace std::chrono_literals;

namespace {

// As svcd configures CAF for a cluster: the same types and wire identifier.
caf::actor_system_config& configured(caf::actor_system_config& c) {
  actors::add_message_types(c);
  c.load<caf::io::middleman>();
  c.set("middleman.app-identifiers", std::vector<std::string>{"svc-cluster-v1"});
  c.set("middleman.workers", 0);
  return c;
}

} // namespace

struct rogue_peer::parts {
  parts() : system{configured(cfg)} {}
  caf::actor_system_config cfg;
  caf::actor_system system;
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::thread io_thread;
  std::shared_ptr<cluster::node_identities> identities = std::make_shared<cluster::node_identities>();
  std::shared_ptr<cluster::cluster_gate> gate;
  caf::io::middleman_actor transport;
  caf::actor own_entry; ///< what its hellos introduce: an actor that answers nothing
};

namespace {

std::size_t serialized_node_id_size(caf::actor_system& sys) {
  std::vector<char> bytes;
  caf::binary_serializer sink{sys, bytes};
  return sink(sys.node()) ? 0 : bytes.size();
}

template <class... Ts>
std::optional<bool> ask(caf::actor_system& sys, const actors::node_actor& target, Ts&&... xs) {
  caf::scoped_actor self{sys};
  std::optional<bool> answer;
  self->request(target, 5s, std::forward<Ts>(xs)...).receive([&](bool ok) { answer = ok; }, [](caf::error&) {});
  return answer;
}

} // namespace

rogue_peer::rogue_peer(const std::string& pki_dir, const std::string& identity)
  : parts_{std::make_unique<parts>()} {
  auto& p = *parts_;
  p.gate = std::make_shared<cluster::cluster_gate>(
    p.io,
    cluster::cluster_gate_options{identity, pki_dir + "/ca.pem", pki_dir + "/" + identity + ".pem",
                                  pki_dir + "/" + identity + ".key"},
    p.identities);
  p.own_entry = test::spawn_behavior(p.system, {[](actors::ping_atom) { return true; }});
  p.gate->set_node_actor(p.own_entry->id(), serialized_node_id_size(p.system));
  std::string error;
  if (!p.gate->open("127.0.0.1", 0, error))
    throw std::runtime_error("the rogue peer's gate: " + error);
  p.transport = cluster::spawn_gated_middleman(p.system, p.gate);
  p.io_thread = std::thread{[&io = p.io] { io.run(); }};
}

rogue_peer::~rogue_peer() {
  auto& p = *parts_;
  caf::anon_send_exit(p.transport, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(p.own_entry, caf::exit_reason::user_shutdown);
  p.gate.reset();
  p.work.reset();
  p.io.stop();
  p.io_thread.join();
}

std::optional<actors::node_actor> rogue_peer::link(const std::string& cluster_address, const std::string& node_id) {
  auto colon = cluster_address.rfind(':');
  auto host = cluster_address.substr(0, colon);
  auto port = static_cast<uint16_t>(std::stoul(cluster_address.substr(colon + 1)));
  parts_->gate->expect(host, port, node_id);
  caf::scoped_actor self{parts_->system};
  std::optional<actors::node_actor> linked;
  self->request(parts_->transport, 5s, caf::connect_atom::value, host, port)
    .receive(
      [&](const caf::node_id&, caf::strong_actor_ptr& entry, const std::set<std::string>&) {
        if (entry)
          linked = caf::actor_cast<actors::node_actor>(entry);
      },
      [](caf::error&) {});
  return linked;
}

std::optional<bool> rogue_peer::adopt(const actors::node_actor& target, uint16_t shard) {
  return ask(parts_->system, target, actors::adopt_atom::value, shard);
}

std::optional<bool> rogue_peer::begin_move(const actors::node_actor& target, uint16_t shard) {
  return ask(parts_->system, target, actors::import_atom::value, actors::shard_rows_v1{shard, true, {}});
}

std::optional<bool> rogue_peer::erase(const actors::node_actor& target, uint16_t shard) {
  return ask(parts_->system, target, actors::delete_atom::value, shard);
}

void rogue_peer::hello(const actors::node_actor& target, const std::string& claimed_id) {
  caf::send_as(parts_->own_entry, target, actors::hello_atom::value, claimed_id,
               caf::actor_cast<caf::strong_actor_ptr>(parts_->own_entry));
}

} // namespace svc::e2e
