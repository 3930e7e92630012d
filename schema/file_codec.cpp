#include "schema/file_codec.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;

json::value encode(const file_record& r) {
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"purpose", to_string(r.purpose)},
          {"bytes", r.bytes},
          {"content_type", r.content_type},
          {"width", r.width},
          {"height", r.height},
          {"sha256", r.sha256},
          {"created_at", core::to_unix_ms(r.created_at)},
          {"expires_at", core::to_unix_ms(r.expires_at)}};
}

bool decode(const json::value& v, file_record& r) {
  json_fields f{v};
  r = file_record{};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  auto purpose = file_purpose_from_name(f.str("purpose"));
  auto bytes = f.i64("bytes");
  r.content_type = f.str("content_type");
  auto width = f.i64("width");
  auto height = f.i64("height");
  r.sha256 = f.str("sha256");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.expires_at = core::from_unix_ms(f.i64("expires_at"));
  constexpr int64_t max_side = (int64_t{1} << 31) - 1;
  if (!f.ok() || !purpose || bytes < 0 || width <= 0 || height <= 0 || width > max_side || height > max_side)
    return false;
  r.purpose = *purpose;
  r.bytes = static_cast<uint64_t>(bytes);
  r.width = static_cast<int>(width);
  r.height = static_cast<int>(height);
  return true;
}

} // namespace svc::schema
