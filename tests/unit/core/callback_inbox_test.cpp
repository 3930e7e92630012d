// The inbox between engine calls and the renders waiting for them: only an
// open id takes deliveries, bodies come out in order, a wait times out, a
// closed id drops what waited, the per-id bound keeps the newest, and the
// token is keyed and per id.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "core/callback_inbox.hpp"

using namespace std::chrono_literals;
using svc::core::callback_inbox;

BOOST_AUTO_TEST_SUITE(core_callback_inbox)

BOOST_AUTO_TEST_CASE(only_an_open_id_takes_deliveries) {
  callback_inbox inbox;
  BOOST_TEST(!inbox.deliver("a", "x"));
  inbox.open("a");
  BOOST_TEST(inbox.deliver("a", "1"));
  BOOST_TEST(inbox.deliver("a", "2"));
  BOOST_TEST(!inbox.deliver("b", "x"));
  BOOST_TEST(*inbox.take("a", 0ms) == "1");
  BOOST_TEST(*inbox.take("a", 0ms) == "2");
  BOOST_TEST(!inbox.take("a", 10ms));
  inbox.deliver("a", "3");
  inbox.close("a");
  BOOST_TEST(!inbox.take("a", 0ms), "closing drops what waited");
  BOOST_TEST(!inbox.deliver("a", "4"));
}

BOOST_AUTO_TEST_CASE(a_waiting_take_wakes_on_a_delivery) {
  callback_inbox inbox;
  inbox.open("a");
  std::thread poster([&] {
    std::this_thread::sleep_for(20ms);
    inbox.deliver("a", "late");
  });
  auto got = inbox.take("a", 5s);
  poster.join();
  BOOST_REQUIRE(got);
  BOOST_TEST(*got == "late");
}

BOOST_AUTO_TEST_CASE(past_its_bound_an_id_keeps_the_newest) {
  callback_inbox inbox{2};
  inbox.open("a");
  for (auto b : {"1", "2", "3"})
    inbox.deliver("a", b);
  BOOST_TEST(*inbox.take("a", 0ms) == "2");
  BOOST_TEST(*inbox.take("a", 0ms) == "3");
}

BOOST_AUTO_TEST_CASE(past_its_byte_bound_an_id_keeps_the_newest) {
  callback_inbox inbox{64, 10};
  inbox.open("a");
  inbox.deliver("a", "123456");
  inbox.deliver("a", "7890ab");
  BOOST_TEST(*inbox.take("a", 0ms) == "7890ab");
  BOOST_TEST(!inbox.take("a", 0ms));
  inbox.deliver("a", std::string(100, 'x'));
  BOOST_TEST(inbox.take("a", 0ms)->size() == 100u, "the newest stays, however large");
}

BOOST_AUTO_TEST_CASE(a_take_on_a_closed_id_waits_its_time) {
  callback_inbox inbox;
  auto t0 = std::chrono::steady_clock::now();
  BOOST_TEST(!inbox.take("never", 30ms));
  bool waited = std::chrono::steady_clock::now() - t0 >= 25ms;
  BOOST_TEST(waited, "no spinning on an id that is not open");
}

BOOST_AUTO_TEST_CASE(a_token_depends_on_the_key_and_the_id) {
  auto t = svc::core::callback_token("key", "img_1");
  BOOST_TEST(t.size() == 64u);
  BOOST_TEST(t == svc::core::callback_token("key", "img_1"));
  BOOST_TEST(t != svc::core::callback_token("key", "img_2"));
  BOOST_TEST(t != svc::core::callback_token("other", "img_1"));
}

BOOST_AUTO_TEST_SUITE_END()
