#pragma once
// The upload record the tests of file rows, orphan blobs and expiry store:
// a 1x1 PNG of team_1.

#include <cstdint>
#include <string>

#include "core/clock.hpp"
#include "schema/file_record.hpp"

namespace svc::test {

/// Upload `id` of team_1, `bytes` long, created at `created`, expiring at `expires`.
inline schema::file_record png_upload(const std::string& id, core::time_point created, core::time_point expires,
                                      std::uint64_t bytes = 3) {
  schema::file_record f;
  f.id = id;
  f.team_id = "team_1";
  f.bytes = bytes;
  f.content_type = "image/png";
  f.width = f.height = 1;
  f.sha256 = std::string(64, 'a');
  f.created_at = created;
  f.expires_at = expires;
  return f;
}

} // namespace svc::test
