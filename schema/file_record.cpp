#include "schema/file_record.hpp"

namespace svc::schema {

std::string_view to_string(file_purpose p) { return p == file_purpose::init_image ? "init_image" : "mask"; }

std::optional<file_purpose> file_purpose_from_name(std::string_view name) {
  for (auto p : {file_purpose::init_image, file_purpose::mask})
    if (name == to_string(p))
      return p;
  return std::nullopt;
}

std::string file_blob_key(std::string_view file_id) { return "files/" + std::string{file_id}; }

bool is_expired(const file_record& f, core::time_point now) { return now >= f.expires_at; }

bool valid(const file_record& f) { return f.width > 0 && f.height > 0; }

} // namespace svc::schema
