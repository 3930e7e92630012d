#pragma once
// Where calls from an engine back to svcd (a Cog prediction's webhooks) meet
// the render that waits for them: the render opens its id before it submits,
// the HTTP side delivers each call's body, the render takes them in order.
// Only an open id takes deliveries, so a call for anything svcd did not
// start is refused.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace svc::core {

class callback_inbox {
public:
  /// At most `per_id_limit` bodies and `per_id_bytes` bytes wait per id (the
  /// newest always), so an engine cannot fill memory.
  explicit callback_inbox(std::size_t per_id_limit = 64, std::size_t per_id_bytes = std::size_t{256} << 20)
      : limit_(per_id_limit), byte_limit_(per_id_bytes) {}

  /// Starts taking deliveries for `id` (again: keeps what waits).
  void open(const std::string& id);
  /// Stops taking them and drops what waits.
  void close(const std::string& id);
  /// Queues `body` for `id`; false when `id` is not open. Past a limit the
  /// oldest go: a later state supersedes them, and the final one comes last.
  bool deliver(const std::string& id, std::string body);
  /// The oldest body for `id`, waiting up to `wait`; nothing on time out.
  std::optional<std::string> take(const std::string& id, std::chrono::milliseconds wait);

private:
  std::size_t limit_, byte_limit_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<std::string, std::deque<std::string>> open_;
};

/// The secret an engine's calls about `id` carry (in the URL svcd gave it):
/// hex HMAC-SHA256 of `id` under `key`, so it survives a restart of svcd and
/// needs no storage, and no other id's token can be derived from it.
std::string callback_token(std::string_view key, std::string_view id);

} // namespace svc::core
