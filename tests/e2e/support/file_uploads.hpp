#pragma once
// Uploads through POST /v1/files for the e2e suites: the tiny test images
// of tests/e2e/data (made once with ffmpeg), multipart/form-data bodies
// built by hand (so tests can also break them), and the upload call.

#include "support/http_client.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace svc::e2e {

/// The bytes of a file under tests/e2e/data (`tiny.png`, `tiny.jpg`, ...); throws if unreadable.
std::string test_image(const std::string& name);

/// One part of a form.
struct form_part {
  std::string name;                        ///< Content-Disposition `name`
  std::string content;                     ///< the part's bytes
  std::optional<std::string> filename;     ///< Content-Disposition `filename`, if any
  std::optional<std::string> content_type; ///< the part's Content-Type, if any
};

/// The boundary every helper uses.
inline const std::string test_boundary = "svc-e2e-7MA4YWxkTrZu0gW";

/// A multipart/form-data body of `parts`; `closed` false leaves out the closing boundary.
std::string multipart_body(const std::vector<form_part>& parts, bool closed = true);

/// `Content-Type: multipart/form-data; boundary=<test_boundary>` with the key.
header_map form_headers(const std::string& key);

/// POST /v1/files with a `file` part (`bytes`, filename `upload.bin`, a
/// misleading part Content-Type) and a `purpose` part.
response upload_file(http_client& c, const std::string& key, const std::string& bytes,
                     const std::string& purpose = "init_image");

/// Uploads and returns the record; throws std::runtime_error unless 201.
boost::json::value upload_file_ok(http_client& c, const std::string& key, const std::string& bytes,
                                  const std::string& purpose = "init_image");

} // namespace svc::e2e
