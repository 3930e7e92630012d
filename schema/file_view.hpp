#pragma once
// The wire form of an uploaded file, exactly as `GET /v1/files/{id}` answers it.

#include <boost/json/value.hpp>

#include "schema/file_record.hpp"

namespace svc::schema {

/// `{id, object: "file", purpose, bytes, content_type, width, height, sha256, created_at, expires_at}`.
boost::json::value file_view(const file_record& f);

} // namespace svc::schema
