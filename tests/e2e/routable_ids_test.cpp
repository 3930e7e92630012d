// Keys and ids minted through a real svcd name their team's shard (issue 16,
// "Routable identifiers"), so a node of a cluster can route any request by
// its key or the id in its path: the key's secret and id, and the ids of a
// job, a file, a webhook endpoint, the job's events and the team's credit
// entries, for several teams.
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include <boost/json/value.hpp>

#include "core/shard.hpp"
#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_routable_ids)

using namespace svc::e2e;
using svc::core::shard_id;

namespace {

void expect_shard(const std::string& id, shard_id shard) {
  BOOST_TEST((svc::core::shard_of_id(id) == shard), id << " should name shard " << int{shard});
}

void expect_key_shard(const api_key& k, shard_id shard) {
  BOOST_REQUIRE_MESSAGE(is_plaintext_key(k.key), k.key);
  auto secret = k.key.substr(k.key.size() - 64);
  BOOST_TEST((svc::core::shard_of_key_secret(secret) == shard), k.key << " should name shard " << int{shard});
  expect_shard(k.id, shard);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(new_keys_and_ids_name_their_team_shard, server_fixture) {
  std::set<int> shards;
  auto c = api();
  for (int i = 0; i < 3; ++i) {
    auto t = create_team_with_keys();
    auto shard = svc::core::shard_of_team(t.id);
    shards.insert(shard);
    for (auto* k : {&t.read, &t.write, &t.full})
      expect_key_shard(*k, shard);

    auto job = json_str(create_image_ok(c, t.write.key, image_body()), "id");
    expect_shard(job, shard);
    expect_shard(json_str(upload_file_ok(c, t.write.key, test_image("tiny.png")), "id"), shard);
    auto endpoint = c.request("POST", "/v1/webhook_endpoints",
                              with_key(t.write.key, {{"Content-Type", "application/json"}}),
                              R"({"url": "https://receiver.invalid/hooks/svc", "events": ["*"]})");
    BOOST_REQUIRE_MESSAGE(endpoint.status == 201, endpoint.summary());
    expect_shard(json_str(endpoint.json(), "id"), shard);

    auto done = wait_terminal(c, t.read.key, job);
    BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
    auto events = data_strings(c.get("/v1/events", with_key(t.read.key)).json());
    BOOST_TEST(!events.empty());
    for (auto& id : events)
      expect_shard(id, shard);
    auto credits = data_strings(ctl_ok({"credits", "history", "--team", t.id, "--format", "json"}));
    BOOST_TEST(credits.size() >= 3u); // grant, hold, charge
    for (auto& id : credits)
      expect_shard(id, shard);
  }
  BOOST_TEST(shards.size() > 1u); // three teams on one shard would hide a constant
}

BOOST_AUTO_TEST_SUITE_END()
