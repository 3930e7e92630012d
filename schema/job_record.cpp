#include "schema/job_record.hpp"

#include "core/enum_names.hpp"

namespace svc::schema {

std::string_view to_string(job_kind k) { return core::enumerator_name(k); }

std::string_view id_prefix(job_kind k) { return k == job_kind::image ? "img" : "vid"; }

std::optional<job_kind> job_kind_of_id(std::string_view id) {
  if (id.rfind("img_", 0) == 0)
    return job_kind::image;
  if (id.rfind("vid_", 0) == 0)
    return job_kind::video;
  return std::nullopt;
}

std::string_view to_string(job_status s) { return core::enumerator_name(s); }

std::optional<job_status> job_status_from_name(std::string_view name) { return core::enum_from_name<job_status>(name); }

bool is_terminal(job_status s) { return s != job_status::queued && s != job_status::processing; }

std::string output_blob_key(const job_record& job, std::size_t index) {
  return "outputs/" + job.id + "." + std::to_string(index) + (job.kind == job_kind::image ? ".png" : ".mp4");
}

} // namespace svc::schema
