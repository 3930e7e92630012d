#include "http/slot_gate.hpp"

#include <boost/test/unit_test.hpp>

#include <vector>

BOOST_AUTO_TEST_SUITE(http_slot_gate)

using svc::http::slot_gate;
using refusal = slot_gate::refusal;

BOOST_AUTO_TEST_CASE(one_team_holds_at_most_half_of_the_slots) {
  slot_gate gate{2};
  refusal why{};
  std::vector<slot_gate::slot> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(gate.try_enter("team_a", 8, why));
    BOOST_TEST(held.back() != nullptr);
  }
  BOOST_TEST(gate.try_enter("team_a", 8, why) == nullptr);
  BOOST_TEST((why == refusal::share_used));
  auto other = gate.try_enter("team_b", 8, why);
  BOOST_TEST(other != nullptr, "another team still gets a slot");
  BOOST_TEST((why == refusal::none));
  held.pop_back();
  BOOST_TEST(gate.try_enter("team_a", 8, why) != nullptr, "a finished upload frees the team's share");
}

BOOST_AUTO_TEST_CASE(a_full_server_refuses_everyone) {
  slot_gate gate{2};
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

BOOST_AUTO_TEST_CASE(a_share_is_the_limit_divided_and_at_least_one_slot) {
  slot_gate halves{2}, sixteenths{16};
  BOOST_TEST(halves.share(1) == 1u);
  BOOST_TEST(halves.share(8) == 4u);
  BOOST_TEST(halves.share(9) == 4u);
  BOOST_TEST(sixteenths.share(4096) == 256u);
  BOOST_TEST(sixteenths.share(8) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
