#include "http/services.hpp"

namespace svc::http {

actors::bucket_actor team_bucket_cache::find(const std::string& team_id) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = map_.find(team_id);
  return it != map_.end() ? it->second : actors::bucket_actor{};
}

void team_bucket_cache::put(const std::string& team_id, actors::bucket_actor h) {
  std::lock_guard<std::mutex> guard{mutex_};
  map_.emplace(team_id, std::move(h));
}

upload_gate::slot upload_gate::try_enter(std::size_t limit) {
  auto n = in_flight_.load();
  do {
    if (n >= limit)
      return nullptr;
  } while (!in_flight_.compare_exchange_weak(n, n + 1));
  // No object to own: the deleter is the point (it runs once, with the last copy).
  return slot{static_cast<void*>(this), [](void* gate) { --static_cast<upload_gate*>(gate)->in_flight_; }};
}

void http_metrics::count(unsigned status) {
  ++requests;
  if (status < 300)
    ++status_2xx;
  else if (status < 400)
    ++status_3xx;
  else if (status < 500)
    ++status_4xx;
  else
    ++status_5xx;
  if (status == 429)
    ++rate_limited;
}

} // namespace svc::http
