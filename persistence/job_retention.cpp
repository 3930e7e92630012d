#include "persistence/job_retention.hpp"

#include "persistence/job_rows.hpp"

namespace svc::persistence {
namespace {

// Jobs one round looks at, retired or not: old jobs that are still running
// (or ended after the cutoff) are passed over, and may not make a round long.
constexpr std::size_t visit_limit = 4 * retention_batch;

} // namespace

status retire_jobs(const tables& t, core::time_point cutoff, write_batch& batch, retention_round& round,
                   std::size_t most) {
  std::size_t visited = 0;
  std::vector<schema::job_record> found;
  for (auto kind : {schema::job_kind::image, schema::job_kind::video}) {
    scan_range range;
    range.prefix = std::string{schema::id_prefix(kind)} + "_";
    auto scanned = t.jobs.for_each(range, [&](const schema::job_record& job) {
      if (job.created_at > cutoff)
        return false;
      if (found.size() == most || ++visited > visit_limit) {
        round.more = true;
        return false;
      }
      if (schema::is_terminal(job.status) && job.completed_at.value_or(job.created_at) <= cutoff)
        found.push_back(job);
      return true;
    });
    if (!scanned.ok())
      return scanned;
  }
  for (auto& job : found)
    erase_job(t, batch, job);
  round.jobs.insert(round.jobs.end(), found.begin(), found.end());
  return {};
}

} // namespace svc::persistence
