#include "schema/job_record.hpp"

#include <array>

namespace svc::schema {
namespace {

constexpr std::array<job_status, 7> all_statuses{job_status::queued,    job_status::processing,
                                                 job_status::succeeded, job_status::failed,
                                                 job_status::cancelled, job_status::expired,
                                                 job_status::moderation_rejected};

} // namespace

std::string_view to_string(job_kind k) { return k == job_kind::image ? "image" : "video"; }

std::string_view id_prefix(job_kind k) { return k == job_kind::image ? "img" : "vid"; }

std::optional<job_kind> job_kind_of_id(std::string_view id) {
  if (id.rfind("img_", 0) == 0)
    return job_kind::image;
  if (id.rfind("vid_", 0) == 0)
    return job_kind::video;
  return std::nullopt;
}

std::string_view to_string(job_status s) {
  switch (s) {
  case job_status::queued: return "queued";
  case job_status::processing: return "processing";
  case job_status::succeeded: return "succeeded";
  case job_status::failed: return "failed";
  case job_status::cancelled: return "cancelled";
  case job_status::expired: return "expired";
  case job_status::moderation_rejected: return "moderation_rejected";
  }
  return "queued";
}

std::optional<job_status> job_status_from_name(std::string_view name) {
  for (auto s : all_statuses)
    if (name == to_string(s))
      return s;
  return std::nullopt;
}

bool is_terminal(job_status s) { return s != job_status::queued && s != job_status::processing; }

std::string output_blob_key(const job_record& job, std::size_t index) {
  return "outputs/" + job.id + "." + std::to_string(index) + (job.kind == job_kind::image ? ".png" : ".mp4");
}

} // namespace svc::schema
