#include "support/engine_jobs.hpp"

#include <chrono>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/svcd_process.hpp"
#include "media_probe.hpp"

namespace svc::e2e {
namespace json = boost::json;

json::value run_engine_job(http_client& c, const team_keys& t, const std::string& path, const json::object& body) {
  auto created = c.request("POST", path, with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  return wait_terminal(c, t.read.key, json_str(created.json(), "id"), std::chrono::seconds{60});
}

int terminal_events(http_client& c, const std::string& read_key, const std::string& id) {
  int n = 0;
  for (const char* type : {"image.completed", "image.failed"}) {
    auto feed = c.get(std::string{"/v1/events?limit=100&type="} + type, with_key(read_key)).json();
    for (auto& e : feed.at("data").as_array())
      if (json_str(e, "data.id") == id)
        ++n;
  }
  return n;
}

void check_failed_and_refunded(http_client& c, const team_keys& t, const json::value& job, const std::string& code,
                               const std::string& message_part, long long credits) {
  BOOST_TEST(json_str(job, "status") == "failed", job);
  BOOST_TEST(json_str(job, "failure.code") == code, job);
  BOOST_TEST(json_str(job, "failure.message").find(message_part) != std::string::npos, job);
  BOOST_TEST(json_str(job, "cost.status") == "refunded");
  BOOST_TEST(json_size(job, "output_urls") == 0);
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == credits);
  BOOST_TEST(b.held == 0);
  BOOST_TEST(terminal_events(c, t.read.key, json_str(job, "id")) == 1, "one terminal event for " << json_str(job, "id"));
}

void check_refused_at_start(const std::string& engines_yaml, const std::vector<refused_edit>& edits,
                            const std::string& engine,
                            const std::function<std::vector<std::string>(const std::string&)>& args_for) {
  for (auto& e : edits) {
    auto changed = engines_yaml;
    auto at = changed.find(e.from);
    BOOST_REQUIRE_MESSAGE(at != std::string::npos, e.from);
    changed.replace(at, e.from.size(), e.to);
    svc::test::temp_file file(changed, ".yaml");
    try {
      svcd_process svcd(args_for(file.path()));
      BOOST_ERROR("svcd started with " << e.expect);
    } catch (const std::runtime_error& error) {
      std::string why = error.what();
      BOOST_TEST(why.find("exited during start") != std::string::npos, why);
      BOOST_TEST(why.find(e.expect) != std::string::npos, why);
      BOOST_TEST(why.find(engine) != std::string::npos, "names the engine: " << why);
    }
  }
}

} // namespace svc::e2e
