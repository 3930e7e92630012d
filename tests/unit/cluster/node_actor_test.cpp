#include "cluster/node_actor.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/post.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>

#include "core/ids.hpp"

BOOST_AUTO_TEST_SUITE(cluster_node_actor)

// The owner's node actor gathers the answers to one peer's forwarded
// requests: those ready before its send runs go back in one message, from
// however many messages of requests they came; later ones go in the next;
// each peer gets its own. The pipeline here is a stand-in that holds each
// request until the test answers it, on the io_context the test runs.

namespace {

using namespace svc;
using namespace std::chrono_literals;

// Holds every request it is given, answered when the test says.
struct held_requests final : http::exchange_handler {
  std::vector<std::pair<std::string, http::responder>> held; ///< target, responder; touched on the io thread only
  bool streams_body(const http::http_request&) const override { return false; }
  void on_request(http::http_request req, std::shared_ptr<http::body_source>, const http::peer_info&,
                  http::responder done) override {
    held.emplace_back(std::string{req.target()}, std::move(done));
  }
  void on_protocol_error(http::protocol_error, const std::string&, const http::peer_info&, http::responder) override {}
};

// What a peer's node actor received.
struct received {
  std::mutex mutex;
  std::vector<actors::forwarded_answers> messages;
  std::size_t count() {
    std::lock_guard lock{mutex};
    return messages.size();
  }
};

actors::forwarded_calls calls_of(std::initializer_list<std::pair<uint64_t, std::string>> tickets_and_targets) {
  actors::forwarded_calls out;
  for (auto& [ticket, target] : tickets_and_targets) {
    actors::forwarded_call call;
    call.ticket = ticket;
    call.request.request_id = core::make_id("req");
    call.request.method = "GET";
    call.request.target = target;
    call.request.client_ip = "127.0.0.1";
    call.request.client_address = "127.0.0.1";
    out.calls.push_back(std::move(call));
  }
  return out;
}

struct entry_fixture {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  boost::asio::io_context io;
  held_requests pipeline;
  cluster::node_identities identities;
  actors::node_actor entry{caf::actor_cast<actors::node_actor>(caf::actor{})};

  entry_fixture() {
    cfg.load<caf::io::middleman>();
    sys = std::make_unique<caf::actor_system>(cfg);
    // The peers here are actors of this process: as if a gate connection proved them.
    identities.bind(sys->node(), "n2", 1);
    cluster::node_actor_links links;
    links.api = links.admin = &pipeline;
    links.io = &io;
    links.body_limit = 1 << 20;
    links.identities = &identities;
    entry = cluster::spawn_node_actor(*sys, links);
  }
  ~entry_fixture() {
    caf::anon_send_exit(entry, caf::exit_reason::user_shutdown);
    io.poll(); // the answers' last sends
  }

  // A peer's node actor: keeps every message of answers it gets.
  caf::actor peer(const std::shared_ptr<received>& into) {
    return sys->spawn(
      [](caf::event_based_actor*, std::shared_ptr<received> kept) -> caf::behavior {
        return {
          [kept](actors::answered_atom, actors::forwarded_answers& answers) {
            std::lock_guard lock{kept->mutex};
            kept->messages.push_back(std::move(answers));
          },
        };
      },
      into);
  }

  // Runs the io_context's handlers until `done` holds, for at most 5 s.
  template <class Done>
  bool run_until(Done done) {
    for (auto deadline = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < deadline;) {
      io.restart();
      io.poll();
      if (done())
        return true;
      std::this_thread::sleep_for(1ms);
    }
    return false;
  }

  // Answers the held request `i` with its target as the body.
  void answer(std::size_t i) {
    http::outgoing_response out;
    out.head = "HTTP/1.1 200 OK\r\n";
    out.body = pipeline.held.at(i).first;
    pipeline.held.at(i).second(std::move(out));
  }
};

std::set<uint64_t> tickets_of(const actors::forwarded_answers& m) {
  std::set<uint64_t> out;
  for (auto& a : m.answers)
    out.insert(a.ticket);
  return out;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(answers_ready_together_go_back_together_whatever_message_brought_them, entry_fixture) {
  auto got = std::make_shared<received>();
  auto from = peer(got);
  // Two messages of requests from one peer.
  caf::send_as(from, entry, actors::forward_atom::value, calls_of({{1, "/v1/a"}}));
  caf::send_as(from, entry, actors::forward_atom::value, calls_of({{2, "/v1/b"}, {3, "/v1/c"}}));
  BOOST_REQUIRE(run_until([&] { return pipeline.held.size() == 3; }));
  // All three answered in one handler: one message back, whichever message each came in.
  boost::asio::post(io, [&] {
    for (std::size_t i = 0; i < 3; ++i)
      answer(i);
  });
  BOOST_REQUIRE(run_until([&] { return got->count() >= 1; }));
  std::this_thread::sleep_for(50ms); // a second message, were there one, would be here by now
  io.poll();
  BOOST_REQUIRE(got->count() == 1u);
  BOOST_TEST((tickets_of(got->messages[0]) == std::set<uint64_t>{1, 2, 3}));
  for (auto& a : got->messages[0].answers)
    BOOST_TEST(a.response.body == (a.ticket == 1 ? "/v1/a" : a.ticket == 2 ? "/v1/b" : "/v1/c"));
  caf::anon_send_exit(from, caf::exit_reason::user_shutdown);
}

BOOST_FIXTURE_TEST_CASE(an_answer_ready_after_the_send_goes_in_the_next_message, entry_fixture) {
  auto got = std::make_shared<received>();
  auto from = peer(got);
  caf::send_as(from, entry, actors::forward_atom::value, calls_of({{1, "/v1/a"}, {2, "/v1/b"}}));
  BOOST_REQUIRE(run_until([&] { return pipeline.held.size() == 2; }));
  answer(0);
  BOOST_REQUIRE(run_until([&] { return got->count() == 1; }));
  answer(1);
  BOOST_REQUIRE(run_until([&] { return got->count() == 2; }));
  BOOST_TEST((tickets_of(got->messages[0]) == std::set<uint64_t>{1}));
  BOOST_TEST((tickets_of(got->messages[1]) == std::set<uint64_t>{2}));
  caf::anon_send_exit(from, caf::exit_reason::user_shutdown);
}

BOOST_FIXTURE_TEST_CASE(each_peer_gets_its_own_answers, entry_fixture) {
  auto got_a = std::make_shared<received>(), got_b = std::make_shared<received>();
  auto a = peer(got_a), b = peer(got_b);
  caf::send_as(a, entry, actors::forward_atom::value, calls_of({{1, "/v1/a"}}));
  BOOST_REQUIRE(run_until([&] { return pipeline.held.size() == 1; }));
  caf::send_as(b, entry, actors::forward_atom::value, calls_of({{1, "/v1/b"}})); // tickets are per sender
  BOOST_REQUIRE(run_until([&] { return pipeline.held.size() == 2; }));
  boost::asio::post(io, [&] {
    answer(0);
    answer(1);
  });
  BOOST_REQUIRE(run_until([&] { return got_a->count() == 1 && got_b->count() == 1; }));
  BOOST_TEST(got_a->messages[0].answers.at(0).response.body == "/v1/a");
  BOOST_TEST(got_b->messages[0].answers.at(0).response.body == "/v1/b");
  BOOST_TEST(got_a->messages[0].answers.size() == 1u);
  BOOST_TEST(got_b->messages[0].answers.size() == 1u);
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(b, caf::exit_reason::user_shutdown);
}

// A sender no gate connection proved (another actor of the process, a
// connection that ended) is served nothing.
BOOST_FIXTURE_TEST_CASE(a_sender_no_connection_proved_is_served_nothing, entry_fixture) {
  identities.release(1);
  auto got = std::make_shared<received>();
  auto a = peer(got);
  caf::send_as(a, entry, actors::forward_atom::value, calls_of({{1, "/v1/a"}}));
  caf::scoped_actor self{*sys};
  bool pinged = true;
  self->request(entry, std::chrono::seconds{5}, actors::ping_atom::value).receive([&](bool ok) { pinged = ok; },
                                                                                  [&](caf::error&) {});
  BOOST_TEST(!pinged, "a ping is answered false");
  // The forward came first into the mailbox: had it been taken, its run would be queued on io by now.
  io.restart();
  io.poll();
  BOOST_TEST(pipeline.held.empty(), "the forwarded request never ran");
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_SUITE_END()
