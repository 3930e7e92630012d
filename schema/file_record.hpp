#pragma once
// An uploaded file (`POST /v1/files`) as Svc stores it: what it is (sniffed
// from its bytes, never as the client declared it), whose it is and until
// when it lives. The bytes live in the blob store under `file_blob_key`.
// `stored_json.hpp` gives its stored form, `file_view.hpp` its wire form
// (derived as `record_view.hpp` says).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe/enum.hpp>

#include "core/clock.hpp"
#include "core/described.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// What a file is for: the image a generation starts from, or a mask.
enum class file_purpose : uint8_t { init_image, mask };
BOOST_DESCRIBE_ENUM(file_purpose, init_image, mask)

/// The wire name (`init_image`).
std::string_view to_string(file_purpose p);
/// The purpose with this wire name, if any.
std::optional<file_purpose> file_purpose_from_name(std::string_view name);

/// The largest `POST /v1/files` body, multipart framing included (decisions.md: 20 MiB).
inline constexpr std::uint64_t max_file_body_bytes = 20 * 1024 * 1024;

struct file_record {
  std::string id;           ///< `file_...`
  std::string team_id;
  file_purpose purpose = file_purpose::init_image;
  std::uint64_t bytes = 0;  ///< size of the stored bytes
  std::string content_type; ///< `image/png`, `image/jpeg` or `image/webp`, as sniffed
  int width = 0;            ///< pixels, from the image header
  int height = 0;           ///< pixels, from the image header
  std::string sha256;       ///< lowercase hex of the bytes
  core::time_point created_at;
  core::time_point expires_at; ///< created_at + `--file-ttl`; the bytes are deleted then
};
SVC_DESCRIBE(file_record, (id, team_id, purpose, bytes, content_type, width, height, sha256, created_at, expires_at))
SVC_VIEW_OBJECT(file_record, "file")
SVC_VIEW_HIDDEN(file_record, team_id)

/// False for a file whose sides are not positive.
bool valid(const file_record& f);

/// The blob-store key of a file's bytes (`files/file_...`).
std::string file_blob_key(std::string_view file_id);

/// True from `expires_at` on: reads treat the file as gone before the sweeper deletes it.
bool is_expired(const file_record& f, core::time_point now);

} // namespace svc::schema
