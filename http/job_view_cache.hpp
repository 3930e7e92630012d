#pragma once
// The rendered views of job records read lately. A client polls its job
// until it ends, so most reads of a job find the record as the last read
// left it; such a read then costs no JSON decode, no view rendering and no
// URL signing. A view is reused only for the very bytes it was made from
// (the record as stored, compared in full), so any write of the job
// (progress, status, retention) shows at the next read. The view is a
// function of those bytes alone: output URLs carry the stored expiry, and
// the base URL and URL secret are fixed for the life of the process.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "schema/job_record.hpp"

namespace svc::http {

class job_view_cache {
public:
  /// What a read needs besides the body: whose job it is, and whether it has ended.
  struct view {
    std::string team_id;
    schema::job_status status = schema::job_status::queued;
    std::string body; ///< the JSON the client gets
  };

  /// At most `capacity` views: about 2.5 KB each for a typical image job.
  explicit job_view_cache(std::size_t capacity = 512) : capacity_{capacity} {}

  /// The view of job `id` made from exactly `stored`; null when there is none.
  std::shared_ptr<const view> find(const std::string& id, std::string_view stored) const;

  /// Keeps `v`, made from `stored`, as the view of job `id`, in place of any
  /// older one; when the cache is full it starts over (a read of a job no
  /// longer kept costs what it costs without the cache).
  std::shared_ptr<const view> put(const std::string& id, std::string stored, view v);

  std::size_t size() const;

private:
  struct entry {
    std::string stored;
    std::shared_ptr<const view> v;
  };
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, entry> entries_;
};

} // namespace svc::http
