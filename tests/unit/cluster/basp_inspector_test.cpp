// What the cluster gate lets through of a peer's BASP frames: the handshake
// of the right side first, then only what the node it names may send.
#include "cluster/basp_inspector.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <caf/atom.hpp>

BOOST_AUTO_TEST_SUITE(cluster_basp_inspector)

using svc::cluster::basp_inspector;
using svc::cluster::peer_end;

namespace {

constexpr uint64_t node_actor = 7;
constexpr std::size_t node_id_size = 25;
constexpr uint64_t response = 0x8000000000000000ULL;
const std::string peer_node(node_id_size, 'P');
const std::string other_node(node_id_size, 'O');

void put_big_endian(std::string& out, uint64_t v, int width) {
  for (int i = width - 1; i >= 0; --i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string frame(uint8_t op, std::string payload = {}, uint8_t flags = 0, uint64_t operation_data = 0,
                  uint64_t dest = 0) {
  std::string out;
  out.push_back(static_cast<char>(op));
  out.append(2, '\0');
  out.push_back(static_cast<char>(flags));
  put_big_endian(out, payload.size(), 4);
  put_big_endian(out, operation_data, 8);
  put_big_endian(out, 99, 8); // the source actor
  put_big_endian(out, dest, 8);
  return out + payload;
}

std::string server_handshake(const std::string& node = peer_node) { return frame(0x00, node + "app ids, actor"); }
std::string client_handshake(const std::string& node = peer_node, uint8_t flags = 0) {
  return frame(0x01, node, flags);
}
std::string to_node_actor(std::string body = "a request") { return frame(0x02, std::move(body), 0, 1, node_actor); }

basp_inspector dialing_peer() { return basp_inspector{peer_end::dialing, node_actor, node_id_size, 1 << 20}; }
basp_inspector dialed_peer() { return basp_inspector{peer_end::dialed, node_actor, node_id_size, 1 << 20}; }

} // namespace

BOOST_AUTO_TEST_CASE(a_handshake_then_messages_to_the_node_actor_pass_and_name_the_peer_once) {
  auto in = dialing_peer();
  auto bytes = client_handshake() + client_handshake(peer_node, 0x02) + to_node_actor() + frame(0x06);
  auto v = in.inspect(bytes);
  BOOST_TEST(v.refusal.empty(), v.refusal);
  BOOST_TEST(v.pass == bytes.size());
  BOOST_TEST_REQUIRE(v.handshake_node.has_value());
  BOOST_TEST(*v.handshake_node == peer_node);
  v = in.inspect(to_node_actor());
  BOOST_TEST(v.refusal.empty());
  BOOST_TEST(!v.handshake_node.has_value(), "the node is named once");
}

BOOST_AUTO_TEST_CASE(frames_pass_only_once_whole) {
  auto in = dialed_peer();
  auto bytes = server_handshake() + to_node_actor(std::string(1000, 'x'));
  auto v = in.inspect(std::string_view{bytes}.substr(0, 20));
  BOOST_TEST(v.pass == 0u, "not even a header yet");
  auto handshake = server_handshake().size();
  v = in.inspect(std::string_view{bytes}.substr(0, handshake + 40));
  BOOST_TEST(v.pass == handshake, "the handshake, not the half message behind it");
  v = in.inspect(std::string_view{bytes}.substr(handshake));
  BOOST_TEST(v.pass == bytes.size() - handshake);
  BOOST_TEST(v.refusal.empty());
}

BOOST_AUTO_TEST_CASE(answers_to_this_nodes_requests_reach_any_actor_other_messages_only_the_node_actor) {
  auto in = dialed_peer();
  BOOST_TEST(in.inspect(server_handshake()).refusal.empty());
  BOOST_TEST(in.inspect(frame(0x02, "an answer", 0, response | 5, 42)).refusal.empty());
  BOOST_TEST(!in.inspect(frame(0x02, "a request", 0, 5, 42)).refusal.empty(), "the shard intake, the router, ...");
}

// CAF asks each node it links to for its spawn server's info, by name, and
// the answer comes as a plain message to the actor that asked.
BOOST_AUTO_TEST_CASE(the_actor_that_asked_the_peers_spawn_server_hears_back) {
  auto in = dialed_peer();
  BOOST_TEST(in.inspect(server_handshake()).refusal.empty());
  std::string question;
  question.push_back(0x02);
  question.append(2, '\0');
  question.push_back(0x01);
  put_big_endian(question, 5, 4);
  put_big_endian(question, 1, 8);
  put_big_endian(question, 42, 8); // the asking actor
  put_big_endian(question, static_cast<uint64_t>(caf::atom("SpawnServ")), 8);
  question += "info?";
  auto outgoing = to_node_actor("first") + question;
  for (std::size_t i = 0; i < outgoing.size(); i += 7) // in pieces, as a socket hands them over
    in.note_outgoing(std::string_view{outgoing}.substr(i, 7));
  BOOST_TEST(in.inspect(frame(0x02, "ok, info", 0, 0, 42)).refusal.empty());
  BOOST_TEST(!in.inspect(frame(0x02, "a request", 0, 0, 43)).refusal.empty(), "any other actor stays closed");
}

BOOST_AUTO_TEST_CASE(what_only_another_node_or_a_forger_sends_closes_the_connection) {
  struct attempt {
    const char* what;
    std::string bytes;
  };
  for (auto& a : {attempt{"a message before the handshake", to_node_actor()},
                  attempt{"the server's handshake from the dialing side", server_handshake()},
                  attempt{"a second handshake naming another node", client_handshake() + client_handshake(other_node)},
                  attempt{"a routed message", client_handshake() + frame(0x03, other_node + peer_node + "m")},
                  attempt{"a message to the config server by name",
                          client_handshake() + frame(0x02, "get", 0x01, 1, static_cast<uint64_t>(caf::atom("ConfigServ")))},
                  attempt{"a down message of another node", client_handshake() + frame(0x05, other_node + "x")},
                  attempt{"a monitor from another node", client_handshake() + frame(0x04, other_node + peer_node)},
                  attempt{"an unknown operation", client_handshake() + frame(0x07)},
                  attempt{"a handshake too short to name a node", client_handshake("short")},
                  attempt{"a frame past the size limit", client_handshake() + frame(0x02, std::string((1 << 20) + 1, 'x'), 0, 1, node_actor)}}) {
    BOOST_TEST_CONTEXT(a.what) {
      auto in = dialing_peer();
      auto v = in.inspect(a.bytes);
      BOOST_TEST(!v.refusal.empty());
      BOOST_TEST(v.pass < a.bytes.size());
      BOOST_TEST(!in.inspect(to_node_actor()).refusal.empty(), "and stays refused");
    }
  }
  auto in = dialing_peer();
  BOOST_TEST(in.inspect(client_handshake() + frame(0x04, peer_node + other_node, 0, 0, 3)).refusal.empty(),
             "a monitor of any actor that sent it a message, by the bound node");
  BOOST_TEST(in.inspect(frame(0x05, peer_node + "reason")).refusal.empty(), "a down message of the bound node");
  BOOST_TEST(in.inspect(frame(0x02, "info?", 0x01, 1, static_cast<uint64_t>(caf::atom("SpawnServ")))).refusal.empty(),
             "CAF's question to the spawn server of each node it links to");
}

BOOST_AUTO_TEST_SUITE_END()
