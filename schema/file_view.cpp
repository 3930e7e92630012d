#include "schema/file_view.hpp"

#include <boost/json.hpp>

#include "core/time_format.hpp"

namespace svc::schema {

boost::json::value file_view(const file_record& f) {
  return {{"id", f.id},
          {"object", "file"},
          {"purpose", to_string(f.purpose)},
          {"bytes", f.bytes},
          {"content_type", f.content_type},
          {"width", f.width},
          {"height", f.height},
          {"sha256", f.sha256},
          {"created_at", core::format_iso8601(f.created_at)},
          {"expires_at", core::format_iso8601(f.expires_at)}};
}

} // namespace svc::schema
