#include "core/callback_inbox.hpp"

#include "core/crypto.hpp"

namespace svc::core {

void callback_inbox::open(const std::string& id) {
  std::lock_guard lock{mutex_};
  open_[id];
}

void callback_inbox::close(const std::string& id) {
  std::lock_guard lock{mutex_};
  open_.erase(id);
}

bool callback_inbox::deliver(const std::string& id, std::string body) {
  {
    std::lock_guard lock{mutex_};
    auto it = open_.find(id);
    if (it == open_.end())
      return false;
    auto& waiting = it->second;
    waiting.push_back(std::move(body));
    auto bytes = [&] {
      std::size_t n = 0;
      for (auto& b : waiting)
        n += b.size();
      return n;
    };
    while (waiting.size() > 1 && (waiting.size() > limit_ || bytes() > byte_limit_))
      waiting.pop_front();
  }
  arrived_.notify_all();
  return true;
}

std::optional<std::string> callback_inbox::take(const std::string& id, std::chrono::milliseconds wait) {
  std::unique_lock lock{mutex_};
  // An id that is not open waits its whole time too: a caller looping on it
  // must not spin.
  auto ready = [&] {
    auto it = open_.find(id);
    return it != open_.end() && !it->second.empty();
  };
  if (!arrived_.wait_for(lock, wait, ready))
    return std::nullopt;
  auto it = open_.find(id);
  auto body = std::move(it->second.front());
  it->second.pop_front();
  return body;
}

std::string callback_token(std::string_view key, std::string_view id) {
  return to_hex(hmac_sha256(key, "engine-callback:" + std::string{id}));
}

} // namespace svc::core
