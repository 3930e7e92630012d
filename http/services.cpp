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
