#include "schema/file_record.hpp"

#include "core/enum_names.hpp"

namespace svc::schema {

std::string_view to_string(file_purpose p) { return core::enumerator_name(p); }

std::optional<file_purpose> file_purpose_from_name(std::string_view name) {
  return core::enum_from_name<file_purpose>(name);
}

std::string file_blob_key(std::string_view file_id) { return "files/" + std::string{file_id}; }

bool is_expired(const file_record& f, core::time_point now) { return now >= f.expires_at; }

bool valid(const file_record& f) { return f.width > 0 && f.height > 0; }

} // namespace svc::schema
