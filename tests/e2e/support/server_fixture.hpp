#pragma once
// The fixture of every e2e test case: a running svcd on a fresh data
// directory, plus helpers that create teams and keys through svcctl and
// clients of both listeners. Prints the svcd log tail when the case failed.

#include "support/http_client.hpp"
#include "support/printing.hpp"
#include "support/svcctl_runner.hpp"
#include "support/svcd_process.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// A key as `svcctl key create` printed it.
struct api_key {
  std::string id;      ///< key_...
  std::string key;     ///< plaintext svc_live_<64 hex>
  std::string scope;   ///< read | write | full
  std::string team_id; ///< team_...
};

/// A team with one key of each scope.
struct team_keys {
  std::string id; ///< team_...
  api_key read;   ///< read scope
  api_key write;  ///< write scope
  api_key full;   ///< full scope
};

/// Base fixture; derive to pass svcd options:
/// `struct f : server_fixture { f() : server_fixture({"--key-grace", "2s"}) {} };`
class server_fixture {
public:
  /// Ignores SIGPIPE and starts svcd with `extra_args`.
  explicit server_fixture(std::vector<std::string> extra_args = {});
  /// Prints the svcd log tail if the current test case has failed.
  ~server_fixture();

  svcd_process svcd; ///< the server under test

  /// Runs svcctl against this server's data directory.
  svcctl_result ctl(const std::vector<std::string>& args) const;
  /// Runs svcctl and returns its JSON output; throws std::runtime_error
  /// (with stderr) when it fails or prints no JSON.
  boost::json::value ctl_ok(const std::vector<std::string>& args) const;
  /// Creates a team with `credits`; returns its id.
  std::string create_team(std::int64_t credits = 1000);
  /// Creates a key of `scope` for `team_id`.
  api_key create_key(const std::string& team_id, const std::string& scope) const;
  /// Creates a team and one key of each scope.
  team_keys create_team_with_keys(std::int64_t credits = 1000);

  /// A new client of the public listener.
  http_client api() const;
  /// A new client of the admin listener.
  http_client admin() const;
  /// `Authorization: Bearer <admin token>`.
  header_map admin_auth() const;

  /// Checks that a new client's `GET path` with `key` answers 200: the
  /// server still serves others after what the test did to it.
  void check_still_serving(const std::string& path, const std::string& key) const;

private:
  int teams_created_ = 0;
};

/// Whether the test case running now has failed so far (fixtures print logs then).
bool current_case_failed();

/// Whether `id` is `req_` followed by 26 Crockford base32 characters.
bool is_request_id(std::string_view id);
/// Whether `key` is `svc_live_` followed by 64 lowercase hex digits.
bool is_plaintext_key(std::string_view key);
/// Whether `r` is an error with this status and `error.code`.
bool is_error(const response& r, int status, std::string_view code);
/// A header holding a non-negative decimal integer; nothing when absent or
/// not exactly digits.
std::optional<std::int64_t> header_int(const response& r, std::string_view name);
/// Seconds since the Unix epoch, now.
std::int64_t unix_now();
/// Milliseconds since the epoch of an ISO 8601 UTC timestamp
/// (`2026-01-02T03:04:05.678Z`); -1 when it does not parse.
std::int64_t parse_iso8601_ms(std::string_view text);

} // namespace svc::e2e
