// One client cannot hold every connection: past --max-connections-per-address
// its further connections are closed at once (others are still served), and
// once more than 75% of --max-connections are open, connections idle for
// --busy-idle-timeout are closed to make room.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_connection_limits)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct three_per_address : server_fixture {
  three_per_address() : server_fixture({"--max-connections-per-address", "3"}) {}
};

struct eight_connections : server_fixture {
  eight_connections()
    : server_fixture({"--max-connections", "8", "--busy-idle-timeout", "300ms", "--read-timeout", "30s"}) {}
};

// Whether a request on `conn` is answered.
bool answered(raw_connection& conn) {
  if (!conn.send("GET /v1/team HTTP/1.1\r\nHost: x\r\n\r\n"))
    return false;
  return conn.read_some(2s).data.rfind("HTTP/1.1 ", 0) == 0;
}

bool closed_by_server(raw_connection& conn) { return conn.read_some(10ms).closed; }

} // namespace

BOOST_FIXTURE_TEST_CASE(connections_past_the_per_address_cap_are_closed_at_once, three_per_address) {
  std::vector<std::unique_ptr<raw_connection>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<raw_connection>(svcd.api_url()));
    BOOST_TEST(answered(*held.back()), "connection " << i << " within the cap");
  }
  raw_connection fourth{svcd.api_url()};
  auto got = fourth.read_until_close(3s);
  BOOST_TEST(got.closed, "the fourth connection is closed");
  BOOST_TEST(got.data.empty());
  BOOST_TEST(answered(*held.front()), "the three are still served");

  held.pop_back();
  BOOST_TEST(wait_until([&] {
               raw_connection again{svcd.api_url()};
               return answered(again);
             }, 3s, 50ms),
             "a closed connection frees its place");
}

BOOST_FIXTURE_TEST_CASE(idle_connections_close_sooner_past_75_percent_of_the_cap, eight_connections) {
  std::vector<std::unique_ptr<raw_connection>> idle;
  for (int i = 0; i < 5; ++i)
    idle.push_back(std::make_unique<raw_connection>(svcd.api_url()));
  // Five of eight is under 75%: the 30 s read timeout applies.
  BOOST_TEST(!wait_until([&] { return closed_by_server(*idle.front()); }, 1s, 50ms),
             "an idle connection closed while the server was not busy");
  // Seven is over 75%: the five idle past --busy-idle-timeout close (the two
  // new ones are not idle that long yet, and once the five are gone the
  // server is not busy any more).
  raw_connection sixth{svcd.api_url()}, seventh{svcd.api_url()};
  for (auto& conn : idle)
    BOOST_TEST(wait_until([&] { return closed_by_server(*conn); }, 3s, 20ms), "idle connection closed when busy");
  raw_connection fresh{svcd.api_url()};
  BOOST_TEST(answered(fresh), "room for new clients");
}

BOOST_AUTO_TEST_SUITE_END()
