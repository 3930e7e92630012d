// Logs, in both --log-format values: one access line per request (with its
// id, route template, status, duration, bytes, team, key and peer); a valid
// X-Request-Id or traceparent is kept beside Svc's own id, and answered back;
// JSON lines are each one JSON object; and no API key, webhook secret or
// admin token appears in any line, however a client sent it.
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/text_lines.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_logs)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

struct text_logs : webhook_fixture {
  text_logs() : webhook_fixture({"--log-format", "text"}) {}
};

struct json_logs : webhook_fixture {
  json_logs() : webhook_fixture({"--log-format", "json"}) {}
};

const std::string trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string traceparent = "00-" + trace_id + "-00f067aa0ba902b7-01";

// What the workload leaves to look for in the log.
struct workload {
  std::vector<std::string> secrets;
  std::string request_id; ///< Svc-Request-Id of the traced request
  std::string key_id;     ///< the key it used
  std::string team_id;
};

// Uses every secret every way a client might: in headers, query strings,
// paths and bodies, rightly and wrongly, on both listeners; and one traced request.
workload use_every_secret(webhook_fixture& f) {
  workload w;
  auto t = create_webhook_team(f);
  auto c = f.api();
  auto admin = f.admin();
  auto token = f.svcd.admin_token();
  auto wrong_key = "svc_live_" + std::string(64, 'e');
  auto endpoint = create_endpoint_ok(c, t.write.key, f.hooks->url());
  auto secret = json_str(endpoint, "secret");
  auto endpoint_id = json_str(endpoint, "id");
  w.secrets = {t.read.key, t.write.key, t.full.key, wrong_key, secret, token};
  w.team_id = t.id;
  w.key_id = t.read.id;

  auto traced =
    c.get("/v1/team", with_key(t.read.key, {{"X-Request-Id", "client-req-7"}, {"traceparent", traceparent}}));
  BOOST_TEST(traced.status == 200, traced.summary());
  BOOST_TEST(traced.header_or_empty("X-Request-Id") == "client-req-7");
  w.request_id = traced.header_or_empty("Svc-Request-Id");

  for (auto& key : {t.read.key, t.full.key}) {
    c.get("/v1/team?api_key=" + key);
    c.get("/v1/team", {{"Authorization", "Bearer " + key}, {"X-Request-Id", key}, {"X-Api-Key", key}});
    c.get("/v1/images/" + key, with_key(key));
    c.get("/v1/" + key);
    create_image(c, t.write.key, image_body(key));
  }
  c.get("/v1/team", with_key(wrong_key));
  c.get("/v1/team?key=" + wrong_key, {{"Authorization", "Basic " + wrong_key}});
  c.get("/v1/webhook_endpoints?secret=" + secret, with_key(t.read.key, {{"X-Request-Id", secret}}));
  c.request("PATCH", "/v1/webhook_endpoints/" + endpoint_id, with_key(t.write.key),
            R"({"metadata": {"secret": ")" + secret + "\"}}");
  test_fire_ok(c, t.write.key, endpoint_id); // signed with the secret
  BOOST_TEST(wait_for_receipts(*f.hooks, 1, [](auto&) { return true; }, 10s));
  c.get("/v1/team", {{"Authorization", "Bearer " + token}});
  admin.get("/admin/actors", f.admin_auth());
  admin.get("/admin/actors", {{"Authorization", "Bearer " + token + "0"}});
  admin.get("/metrics?token=" + token, {{"X-Request-Id", token}});
  admin.get("/" + token);
  // The access line of the last request is written before its answer: the log is complete now.
  return w;
}

void expect_no_secret(const std::string& log, const std::vector<std::string>& secrets) {
  for (auto& s : secrets) {
    BOOST_TEST(log.find(s) == std::string::npos, "a secret is in the log: " << s.substr(0, 12) << "...");
    // The secret part of a key alone (after `svc_live_`) must not appear either.
    if (s.rfind("svc_live_", 0) == 0)
      BOOST_TEST(log.find(s.substr(9)) == std::string::npos);
  }
}

using fields = std::map<std::string, std::string>;

// The access lines of a JSON log as their fields; every line must be one JSON object.
std::vector<fields> json_access_lines(const std::string& log) {
  std::vector<fields> out;
  for (auto& line : lines_of(log)) {
    if (line.rfind("---- e2e: ", 0) == 0) // the harness marks each start of svcd in the same file
      continue;
    boost::system::error_code ec;
    auto v = json::parse(line, ec);
    BOOST_TEST_REQUIRE((!ec && v.is_object()), "not one JSON object: " << line);
    BOOST_TEST(json_str(v, "time").size() == 24, line);
    if (json_str(v, "component") != "access")
      continue;
    fields f;
    for (auto& [name, value] : v.as_object())
      f[std::string{name}] = value.is_string() ? std::string{value.get_string()} : json::serialize(value);
    out.push_back(std::move(f));
  }
  return out;
}

// The access lines of a text log as their fields: `... access: MESSAGE name=value name="quoted value" ...`,
// the message's words kept as `message`.
std::vector<fields> text_access_lines(const std::string& log) {
  std::vector<fields> out;
  for (auto& line : lines_of(log)) {
    auto at = line.find(" access: ");
    if (at == std::string::npos)
      continue;
    fields f;
    std::string words, name, value;
    bool in_value = false, quoted = false;
    auto end_token = [&] {
      if (in_value)
        f[name] = value;
      else if (!name.empty())
        words += (words.empty() ? "" : " ") + name;
      name.clear(), value.clear(), in_value = false;
    };
    for (std::size_t i = at + 9; i < line.size(); ++i) {
      char ch = line[i];
      if (quoted && ch == '\\' && i + 1 < line.size())
        value.push_back(line[++i]);
      else if (ch == '"' && in_value)
        quoted = !quoted;
      else if (ch == ' ' && !quoted)
        end_token();
      else if (ch == '=' && !in_value)
        in_value = true;
      else
        (in_value ? value : name).push_back(ch);
    }
    end_token();
    f["message"] = words;
    out.push_back(std::move(f));
  }
  return out;
}

// One access line per request, each with every field; the traced request's line in full.
void expect_access_lines(const workload& w, const std::vector<fields>& lines) {
  BOOST_TEST(lines.size() >= 25u, lines.size() << " access lines");
  int traced = 0;
  for (auto& f : lines) {
    for (auto name : {"request_id", "method", "route", "status", "duration_ms", "bytes", "team", "key", "peer"})
      BOOST_TEST(f.count(name) == 1u, name << " missing in the line of " << f.at("message"));
    if (f.count("request_id") == 0 || f.at("request_id") != w.request_id)
      continue;
    ++traced;
    BOOST_TEST(f.at("message") == "GET /v1/team 200");
    BOOST_TEST(f.at("method") == "GET");
    BOOST_TEST(f.at("route") == "/v1/team");
    BOOST_TEST(f.at("status") == "200");
    BOOST_TEST(f.at("team") == w.team_id);
    BOOST_TEST(f.at("key") == w.key_id);
    BOOST_TEST(f.at("peer") == "127.0.0.1");
    BOOST_TEST(f.count("client_request_id") == 1u);
    BOOST_TEST(f.count("trace_id") == 1u);
    if (f.count("client_request_id") && f.count("trace_id")) {
      BOOST_TEST(f.at("client_request_id") == "client-req-7");
      BOOST_TEST(f.at("trace_id") == trace_id);
    }
  }
  BOOST_TEST(traced == 1, traced << " access lines for " << w.request_id);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(json_lines_are_objects_with_access_fields_and_no_secret, json_logs) {
  auto w = use_every_secret(*this);
  auto log = read_file(svcd.log_path());
  expect_no_secret(log, w.secrets);
  expect_access_lines(w, json_access_lines(log));
}

BOOST_FIXTURE_TEST_CASE(text_lines_carry_the_access_fields_and_no_secret, text_logs) {
  auto w = use_every_secret(*this);
  auto log = read_file(svcd.log_path());
  expect_no_secret(log, w.secrets);
  expect_access_lines(w, text_access_lines(log));
}

BOOST_FIXTURE_TEST_CASE(an_invalid_request_id_or_traceparent_is_ignored, json_logs) {
  auto c = api();
  auto r = c.get("/healthz_nope", {{"X-Request-Id", "has space"}, {"traceparent", "00-" + trace_id + "-bad-01"}});
  BOOST_TEST(r.header_or_empty("X-Request-Id").empty());
  auto id = r.header_or_empty("Svc-Request-Id");
  BOOST_TEST(is_request_id(id), id);
  auto log = read_file(svcd.log_path());
  BOOST_TEST(log.find("has space") == std::string::npos);
  BOOST_TEST(log.find(trace_id) == std::string::npos);
  BOOST_TEST(log.find("\"request_id\":\"" + id + "\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
