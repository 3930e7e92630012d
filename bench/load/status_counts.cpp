#include "bench/load/status_counts.hpp"

namespace svc::bench {

void status_counts::add(unsigned status) {
  if (status == 0)
    ++errors;
  else
    ++by_status[status];
}

void status_counts::merge(const status_counts& other) {
  for (auto& [status, n] : other.by_status)
    by_status[status] += n;
  errors += other.errors;
}

uint64_t status_counts::of(unsigned status) const {
  auto it = by_status.find(status);
  return it == by_status.end() ? 0 : it->second;
}

uint64_t status_counts::other_than(unsigned status) const {
  uint64_t n = errors;
  for (auto& [s, count] : by_status)
    if (s != status)
      n += count;
  return n;
}

std::string status_counts::to_text() const {
  std::string out;
  for (auto& [status, n] : by_status)
    out += (out.empty() ? "" : " ") + std::to_string(status) + "=" + std::to_string(n);
  return (out.empty() ? "no answers" : out) + ", socket errors " + std::to_string(errors);
}

std::string status_counts::to_json() const {
  std::string out = "{";
  for (auto& [status, n] : by_status)
    out += (out.size() > 1 ? ",\"" : "\"") + std::to_string(status) + "\":" + std::to_string(n);
  return out + "}";
}

} // namespace svc::bench
