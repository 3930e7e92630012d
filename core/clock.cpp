#include "core/clock.hpp"

#include <algorithm>

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

std::shared_ptr<const clock> make_clock_starting_at(time_point start) {
  auto c = std::make_shared<offset_clock>();
  // Rounded up: the clock never reads earlier than `start`.
  c->advance(std::chrono::ceil<std::chrono::milliseconds>(start - std::chrono::system_clock::now()));
  return c;
}

int64_t to_unix_ms(time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

time_point from_unix_ms(int64_t ms) {
  // Stored timestamps are untrusted bytes after a crash: a value past what
  // the clock's nanoseconds can hold (about the years 1678..2262) would
  // overflow, so it is clamped to the nearest moment the clock can show.
  constexpr auto max_ms = std::chrono::duration_cast<std::chrono::milliseconds>(time_point::max().time_since_epoch()).count();
  constexpr auto min_ms = std::chrono::duration_cast<std::chrono::milliseconds>(time_point::min().time_since_epoch()).count();
  return time_point{std::chrono::milliseconds{std::clamp<int64_t>(ms, min_ms, max_ms)}};
}

} // namespace svc::core
