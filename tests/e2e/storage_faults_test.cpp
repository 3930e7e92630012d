// A store that fails reads (an LMDB error: no reader slot, I/O, a damaged
// page), made with the --fault-injection switch: every API read answers 503
// `storage_unavailable` with Retry-After, never 401 for a key or 404 for a
// record that exists; /readyz is 503 meanwhile; all works again once reads do.
// Without the option the switch does not exist.
#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_storage_faults)

using namespace svc::e2e;

namespace {

struct faulty_store : server_fixture {
  faulty_store() : server_fixture({"--fault-injection"}) {}

  response switch_reads(const std::string& to) {
    auto headers = admin_auth();
    headers["Content-Type"] = "application/json";
    return admin().request("POST", "/admin/faults", headers, R"({"store_reads": ")" + to + R"("})");
  }
};

void check_unavailable(const response& r, const std::string& what) {
  BOOST_TEST(is_error(r, 503, "storage_unavailable"), what << ": " << r.summary());
  BOOST_TEST(json_str(r.json(), "error.type") == "internal", what);
  BOOST_TEST(header_int(r, "Retry-After") == std::optional<std::int64_t>{1}, what);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(failed_reads_answer_503_never_401_or_404, faulty_store) {
  auto t = create_team_with_keys();
  auto c = api();
  auto image = json_str(create_image_ok(c, t.write.key, image_body("a lighthouse")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, image), "status") == "succeeded");
  auto unused = create_key(t.id, "read"); // never used: not in the key cache
  BOOST_REQUIRE(admin().get("/readyz").status == 200);

  auto on = switch_reads("fail");
  BOOST_REQUIRE_MESSAGE(on.status == 200, on.summary());
  check_unavailable(c.get("/v1/team", with_key(unused.key)), "a key the store cannot look up");
  check_unavailable(c.get("/v1/images/" + image, with_key(t.read.key)), "an image that exists");
  check_unavailable(c.get("/v1/images", with_key(t.read.key)), "a list");
  check_unavailable(c.get("/v1/images?status=failed", with_key(t.read.key)), "a filtered list");
  check_unavailable(c.get("/v1/balance", with_key(t.read.key)), "the balance");
  check_unavailable(c.get("/v1/events", with_key(t.read.key)), "the events feed");
  check_unavailable(c.get("/v1/api_keys", with_key(t.full.key)), "the keys");
  check_unavailable(c.request("POST", "/v1/images", with_key(t.write.key, {{"Content-Type", "application/json"},
                                                                            {"Idempotency-Key", "k-1"}}),
                              boost::json::serialize(image_body("a second lighthouse"))),
                    "a create whose idempotency key cannot be checked");
  auto ready = admin().get("/readyz");
  BOOST_TEST(ready.status == 503, ready.summary());
  BOOST_TEST(json_str(ready.json(), "status") == "storage_unavailable");
  BOOST_TEST(admin().get("/healthz").status == 200, "alive all the same");

  auto off = switch_reads("ok");
  BOOST_REQUIRE_MESSAGE(off.status == 200, off.summary());
  BOOST_TEST(admin().get("/readyz").status == 200);
  BOOST_TEST(c.get("/v1/team", with_key(unused.key)).status == 200);
  auto again = c.get("/v1/images/" + image, with_key(t.read.key));
  BOOST_TEST(again.status == 200, again.summary());
  BOOST_TEST(json_str(again.json(), "status") == "succeeded");
  BOOST_TEST(list_image_ids(c, t.read.key) == std::vector<std::string>{image}, "nothing was created meanwhile");
}

BOOST_FIXTURE_TEST_CASE(the_switch_checks_its_body, faulty_store) {
  auto bad = switch_reads("maybe");
  BOOST_TEST(is_error(bad, 400, "invalid_parameter"), bad.summary());
  BOOST_TEST(admin().get("/readyz").status == 200, "nothing switched");
}

BOOST_FIXTURE_TEST_CASE(without_the_option_there_is_no_switch, server_fixture) {
  auto headers = admin_auth();
  headers["Content-Type"] = "application/json";
  auto r = admin().request("POST", "/admin/faults", headers, R"({"store_reads": "fail"})");
  BOOST_TEST(is_error(r, 404, "route_not_found"), r.summary());
  BOOST_TEST(admin().get("/readyz").status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
