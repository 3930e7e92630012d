#include "cluster/forwarding_table.hpp"
#include "tests/support/spawn_behavior.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

BOOST_AUTO_TEST_SUITE(cluster_forwarding_table)

// The table of forwarded requests against peers of the test's own (local
// actors standing where another node's node actor would): a request reaches
// its peer as this node's entry, the peer's answer settles it once on the
// asio thread, and a link going down, a deadline passing or a full peer
// fails requests with `owner_unavailable`.

namespace {

using namespace svc;
using namespace std::chrono_literals;

// A peer that answers every request to its sender with its own name, the
// target and how many requests came in the same message.
caf::behavior answering_peer(caf::event_based_actor* self, std::string name) {
  return {
    [=](actors::forward_atom, const actors::forwarded_calls& calls) {
      actors::forwarded_answers out;
      for (auto& call : calls.calls)
        out.answers.push_back({call.ticket, {"HTTP/1.1 200 OK\r\n",
                                             name + " " + call.request.target + " of " + std::to_string(calls.calls.size()),
                                             true}});
      self->send(caf::actor_cast<caf::actor>(self->current_sender()), actors::answered_atom::value, std::move(out));
    },
  };
}

// A peer that keeps what it gets and never answers.
caf::behavior silent_peer() {
  return {
    [](actors::forward_atom, const actors::forwarded_calls&) {},
  };
}

actors::forwarded_answers one_answer(uint64_t ticket, std::string body) {
  return {{{ticket, {"HTTP/1.1 200 OK\r\n", std::move(body), true}}}};
}

struct table_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> busy = boost::asio::make_work_guard(io);
  std::shared_ptr<cluster::forwarding_table> table = std::make_shared<cluster::forwarding_table>(io, 60s, 2);
  caf::actor own;
  std::vector<std::string> bodies;
  std::optional<std::string> body; ///< the last
  std::optional<caf::error> error;
  int settled = 0;

  table_fixture() {
    own = sys.spawn(
      [](caf::event_based_actor* self, std::shared_ptr<cluster::forwarding_table> answers_to) -> caf::behavior {
        return {
          [=](actors::answered_atom, actors::forwarded_answers& answers) {
            answers_to->answer(caf::actor_cast<caf::actor_addr>(self->current_sender()), std::move(answers));
          },
        };
      },
      table);
    table->set_own_entry(caf::actor_cast<actors::node_actor>(own));
  }
  ~table_fixture() {
    table->close();
    caf::anon_send_exit(own, caf::exit_reason::user_shutdown);
  }

  actors::node_actor peer(caf::actor a) { return caf::actor_cast<actors::node_actor>(std::move(a)); }

  void forward(const std::string& peer_id, std::string target = "/v1/team") {
    actors::forwarded_request req;
    req.method = "GET";
    req.target = std::move(target);
    table->forward(
      peer_id, std::move(req),
      [this](actors::forwarded_response& a) {
        body = a.body;
        bodies.push_back(a.body);
        ++settled;
      },
      [this](const caf::error& e) {
        error = e;
        ++settled;
      });
  }

  // Runs the asio side until `count` continuations ran (5 s at most).
  void settle(int count) {
    auto until = std::chrono::steady_clock::now() + 5s;
    while (settled < count && std::chrono::steady_clock::now() < until)
      io.run_one_for(100ms);
  }

  bool failed_unavailable() const {
    return error && actors::is_domain_error(*error, schema::error_code::owner_unavailable) && !body;
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(the_peer_gets_the_request_as_this_nodes_entry_and_its_answer_settles_it, table_fixture) {
  table->set_route("n2", peer(sys.spawn(answering_peer, "n2")));
  forward("n2", "/v1/images/img_1");
  settle(1);
  BOOST_TEST(settled == 1);
  BOOST_REQUIRE(body);
  BOOST_TEST(*body == "n2 /v1/images/img_1 of 1");
  // Two forwarded before the asio side runs go in one message.
  forward("n2", "/v1/images/img_2");
  forward("n2", "/v1/images/img_3");
  settle(3);
  BOOST_TEST(bodies == (std::vector<std::string>{"n2 /v1/images/img_1 of 1", "n2 /v1/images/img_2 of 2",
                                                 "n2 /v1/images/img_3 of 2"}),
             boost::test_tools::per_element());
  auto counts = table->counts("n2");
  BOOST_TEST(counts.forwarded == 3u);
  BOOST_TEST(counts.in_flight == 0u);
  BOOST_TEST(counts.failed == 0u);
}

BOOST_FIXTURE_TEST_CASE(an_answer_from_another_peer_or_a_second_one_settles_nothing, table_fixture) {
  auto n2 = svc::test::spawn_behavior(sys, silent_peer());
  table->set_route("n2", peer(n2));
  forward("n2");
  caf::scoped_actor stranger{sys};
  // Tickets count from 1: the first request's ticket is 1.
  stranger->send(own, actors::answered_atom::value, one_answer(1, "forged"));
  io.run_for(200ms);
  BOOST_TEST(settled == 0);
  BOOST_TEST(table->counts("n2").in_flight == 1u);
  // The ticket's own peer settles it, once.
  caf::anon_send(own, actors::answered_atom::value, one_answer(1, "anonymous"));
  caf::send_as(n2, own, actors::answered_atom::value, one_answer(1, "real"));
  caf::send_as(n2, own, actors::answered_atom::value, one_answer(1, "again"));
  settle(1);
  io.run_for(200ms);
  BOOST_TEST(settled == 1);
  BOOST_REQUIRE(body);
  BOOST_TEST(*body == "real");
}

BOOST_FIXTURE_TEST_CASE(a_peer_going_down_fails_its_requests_at_once_and_new_ones_until_it_is_back, table_fixture) {
  auto n2 = peer(svc::test::spawn_behavior(sys, silent_peer()));
  table->set_route("n2", n2);
  forward("n2");
  table->set_route("n2", actors::node_actor{});
  settle(1);
  BOOST_TEST(failed_unavailable());
  forward("n2");
  settle(2);
  BOOST_TEST(settled == 2);
  BOOST_TEST(table->counts("n2").failed == 2u);
  BOOST_TEST(table->counts("n2").in_flight == 0u);
  // An unknown peer fails the same way.
  error.reset();
  forward("n9");
  settle(3);
  BOOST_TEST(failed_unavailable());
}

BOOST_FIXTURE_TEST_CASE(a_request_past_its_deadline_fails_and_a_full_peer_refuses_more, table_fixture) {
  table->set_route("n2", peer(svc::test::spawn_behavior(sys, silent_peer())));
  forward("n2");
  forward("n2");
  forward("n2"); // over max_in_flight (2): fails at once
  settle(1);
  BOOST_TEST(settled == 1);
  BOOST_TEST(failed_unavailable());
  BOOST_TEST(table->expire(std::chrono::steady_clock::now()) == 0u);
  BOOST_TEST(table->expire(std::chrono::steady_clock::now() + 61s) == 2u);
  settle(3);
  BOOST_TEST(settled == 3);
  auto counts = table->counts("n2");
  BOOST_TEST(counts.in_flight == 0u);
  BOOST_TEST(counts.failed == 3u);
  BOOST_TEST(counts.forwarded == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
