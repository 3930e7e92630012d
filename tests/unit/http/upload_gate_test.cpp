#include "http/upload_gate.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

BOOST_AUTO_TEST_SUITE(http_upload_gate)

using svc::http::upload_gate;
using refusal = upload_gate::refusal;

BOOST_AUTO_TEST_CASE(one_team_holds_at_most_half_of_the_slots) {
  upload_gate gate;
  refusal why{};
  std::vector<upload_gate::slot> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(gate.try_enter("team_a", 8, why));
    BOOST_TEST(held.back() != nullptr);
  }
  BOOST_TEST(gate.try_enter("team_a", 8, why) == nullptr);
  BOOST_TEST((why == refusal::team_share_used));
  auto other = gate.try_enter("team_b", 8, why);
  BOOST_TEST(other != nullptr, "another team still gets a slot");
  BOOST_TEST((why == refusal::none));
  held.pop_back();
  BOOST_TEST(gate.try_enter("team_a", 8, why) != nullptr, "a finished upload frees the team's share");
}

BOOST_AUTO_TEST_CASE(a_full_server_refuses_everyone) {
  upload_gate gate;
  refusal why{};
  auto a = gate.try_enter("team_a", 2, why);
  auto b = gate.try_enter("team_b", 2, why);
  BOOST_TEST((a && b));
  BOOST_TEST(gate.try_enter("team_c", 2, why) == nullptr);
  BOOST_TEST((why == refusal::server_full));
  BOOST_TEST(gate.in_flight() == 2u);
  auto copy = a;
  a.reset();
  BOOST_TEST(gate.in_flight() == 2u, "the slot is held while any copy lives");
  copy.reset();
  BOOST_TEST(gate.in_flight() == 1u);
}

BOOST_AUTO_TEST_CASE(a_single_slot_may_go_to_one_team) {
  BOOST_TEST(upload_gate::team_share(1) == 1u);
  BOOST_TEST(upload_gate::team_share(8) == 4u);
  BOOST_TEST(upload_gate::team_share(9) == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
