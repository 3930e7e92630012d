#include "support/neighbour_fixture.hpp"

#include <algorithm>

#include <boost/test/unit_test.hpp>

#include "support/json_util.hpp"

namespace svc::e2e {
namespace {

using std::chrono::milliseconds;

// Fewer reads than this means the probe itself was held up.
constexpr std::size_t min_reads = 10;

} // namespace

neighbour_fixture::neighbour_fixture(std::vector<std::string> extra_args)
    : webhook_fixture(std::move(extra_args)), c(api()) {
  a = make_healthy_team("/a");
  b = make_healthy_team("/b");
}

healthy_team neighbour_fixture::make_healthy_team(const std::string& path) {
  healthy_team t;
  t.keys = create_webhook_team(*this);
  t.endpoint_id = json_str(create_endpoint_ok(c, t.keys.write.key, hooks->url(path)), "id");
  t.path = path;
  return t;
}

std::unique_ptr<latency_probe> neighbour_fixture::probe_reads(std::vector<std::string> targets) const {
  targets.insert(targets.end(), {"/v1/team", "/v1/balance", "/v1/webhook_endpoints/" + a.endpoint_id,
                                 "/v1/webhook_endpoints/" + a.endpoint_id + "/deliveries?limit=5"});
  return std::make_unique<latency_probe>(svcd.api_url(), a.keys.read.key, std::move(targets));
}

// The time from the API call of a test fire at `t`'s endpoint to its
// receipt; twice the bound when it did not arrive within that.
milliseconds neighbour_fixture::delivery_time(const healthy_team& t) {
  auto fired = std::chrono::system_clock::now();
  auto event = test_fire_ok(c, t.keys.write.key, t.endpoint_id);
  auto got = wait_for_receipt(*hooks, event_is(event), 2 * delivery_bound);
  return got ? std::chrono::duration_cast<milliseconds>(got->request.received_at - fired) : 2 * delivery_bound;
}

void neighbour_fixture::check_healthy_deliveries(const std::function<bool()>& go_on, int min_rounds) {
  milliseconds slowest_a{0}, slowest_b{0};
  int rounds = 0;
  while (rounds < min_rounds || (go_on && go_on())) {
    slowest_a = std::max(slowest_a, delivery_time(a));
    slowest_b = std::max(slowest_b, delivery_time(b));
    ++rounds;
  }
  BOOST_TEST_MESSAGE("healthy deliveries, " << rounds << " rounds: slowest " << slowest_a.count() << " ms to team a, "
                                            << slowest_b.count() << " ms to team b");
  BOOST_TEST(slowest_a.count() < delivery_bound.count(), "a healthy delivery to team a took " << slowest_a.count() << " ms");
  BOOST_TEST(slowest_b.count() < delivery_bound.count(), "a healthy delivery to team b took " << slowest_b.count() << " ms");
}

void neighbour_fixture::check_reads(const read_figures& f) {
  BOOST_TEST_MESSAGE("API reads: " << f);
  BOOST_TEST(f.reads >= min_reads, f);
  BOOST_TEST(f.failures == 0u, f);
  BOOST_TEST(f.slowest.count() < read_bound.count(), f);
}

} // namespace svc::e2e
