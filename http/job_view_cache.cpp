#include "http/job_view_cache.hpp"

namespace svc::http {

std::shared_ptr<const job_view_cache::view> job_view_cache::find(const std::string& id,
                                                                 std::string_view stored) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.stored != stored)
    return nullptr;
  return it->second.v;
}

std::shared_ptr<const job_view_cache::view> job_view_cache::put(const std::string& id, std::string stored, view v) {
  auto kept = std::make_shared<const view>(std::move(v));
  std::lock_guard<std::mutex> guard{mutex_};
  if (entries_.size() >= capacity_ && entries_.find(id) == entries_.end())
    entries_.clear();
  entries_[id] = entry{std::move(stored), kept};
  return kept;
}

std::size_t job_view_cache::size() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return entries_.size();
}

} // namespace svc::http
