#include "core/clock.hpp"

namespace svc::core {

time_point offset_clock::now() const {
  return std::chrono::system_clock::now() + std::chrono::milliseconds{offset_ms_.load()};
}

void offset_clock::advance(std::chrono::milliseconds d) {
  offset_ms_ += d.count();
}

std::shared_ptr<const clock> make_system_clock() {
  static auto instance = std::make_shared<system_clock>();
  return instance;
}

int64_t to_unix_ms(time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

time_point from_unix_ms(int64_t ms) {
  return time_point{std::chrono::milliseconds{ms}};
}

} // namespace svc::core
