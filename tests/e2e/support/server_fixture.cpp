#include "support/server_fixture.hpp"

#include <chrono>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <stdexcept>

#include <boost/test/framework.hpp>
#include <boost/test/results_collector.hpp>
#include <boost/test/unit_test.hpp>
#include <boost/test/tree/test_unit.hpp>

#include <boost/json/serialize.hpp>

#include "support/json_util.hpp"

namespace svc::e2e {
namespace json = boost::json;

namespace {

int ignore_sigpipe() {
  std::signal(SIGPIPE, SIG_IGN);
  return 0;
}

} // namespace

bool current_case_failed() {
  namespace ut = boost::unit_test;
  if (!ut::framework::test_in_progress()) // a fixture used outside a test (the crash campaign)
    return false;
  try {
    auto id = ut::framework::current_test_case().p_id;
    return !ut::results_collector.results(id).passed();
  } catch (...) {
    return false;
  }
}

server_fixture::server_fixture(std::vector<std::string> extra_args)
  : svcd((ignore_sigpipe(), std::move(extra_args))) {}

server_fixture::~server_fixture() {
  if (current_case_failed())
    std::cerr << "--- svcd.log tail (" << svcd.data_dir() << "):\n" << svcd.log_tail(60) << "\n---\n";
}

svcctl_result server_fixture::ctl(const std::vector<std::string>& args) const {
  return run_svcctl(svcd.data_dir(), args);
}

json::value server_fixture::ctl_ok(const std::vector<std::string>& args) const {
  return run_svcctl_ok(svcd.data_dir(), args);
}

std::string server_fixture::create_team(std::int64_t credits) {
  auto n = std::to_string(++teams_created_);
  auto team = ctl_ok({"team", "create", "--name", "e2e team " + n, "--owner-email", "owner" + n + "@example.com",
                      "--credits", std::to_string(credits)});
  auto id = json_str(team, "id");
  if (id.rfind("team_", 0) != 0)
    throw std::runtime_error("team create printed no team id: " + json::serialize(team));
  return id;
}

api_key server_fixture::create_key(const std::string& team_id, const std::string& scope) const {
  auto k = ctl_ok({"key", "create", "--team", team_id, "--scope", scope});
  api_key out{json_str(k, "id"), json_str(k, "key"), json_str(k, "scope"), json_str(k, "team_id")};
  if (out.id.empty() || out.key.empty())
    throw std::runtime_error("key create printed no key: " + json::serialize(k));
  return out;
}

team_keys server_fixture::create_team_with_keys(std::int64_t credits) {
  team_keys t;
  t.id = create_team(credits);
  t.read = create_key(t.id, "read");
  t.write = create_key(t.id, "write");
  t.full = create_key(t.id, "full");
  return t;
}

http_client server_fixture::api() const { return http_client{svcd.api_url()}; }

http_client server_fixture::admin() const { return http_client{svcd.admin_url()}; }

header_map server_fixture::admin_auth() const { return {{"Authorization", "Bearer " + svcd.admin_token()}}; }

void server_fixture::check_still_serving(const std::string& path, const std::string& key) const {
  auto c = api();
  auto r = c.get(path, with_key(key));
  BOOST_TEST(r.status == 200, "another client after the abuse: " << r.summary());
}

bool is_request_id(std::string_view id) {
  static constexpr std::string_view crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  if (id.size() != 4 + 26 || id.substr(0, 4) != "req_")
    return false;
  for (char c : id.substr(4))
    if (crockford.find(c) == std::string_view::npos)
      return false;
  return true;
}

bool is_plaintext_key(std::string_view key) {
  if (key.size() != 9 + 64 || key.substr(0, 9) != "svc_live_")
    return false;
  for (char c : key.substr(9))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

bool is_error(const response& r, int status, std::string_view code) {
  return r.status == status && json_str(r.json(), "error.code") == code;
}

std::optional<std::int64_t> header_int(const response& r, std::string_view name) {
  auto v = r.header(name);
  if (!v || v->empty() || v->size() > 18)
    return std::nullopt;
  std::int64_t out = 0;
  for (char c : *v) {
    if (c < '0' || c > '9')
      return std::nullopt;
    out = out * 10 + (c - '0');
  }
  return out;
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

std::int64_t parse_iso8601_ms(std::string_view text) {
  std::tm tm{};
  int ms = 0;
  std::string s{text};
  int n = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &n)
      != 6)
    return -1;
  auto rest = s.substr(static_cast<std::size_t>(n));
  if (!rest.empty() && rest[0] == '.') {
    std::size_t i = 1, digits = 0;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) {
      if (digits < 3)
        ms = ms * 10 + (rest[i] - '0');
      ++digits;
      ++i;
    }
    for (; digits < 3; ++digits)
      ms *= 10;
    rest = rest.substr(i);
  }
  if (rest != "Z")
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000 + ms;
}

} // namespace svc::e2e
