#pragma once
// The requests the harness sends, formatted in full once (HTTP/1.1,
// keep-alive, key in X-Api-Key), so a run only copies bytes.

#include <boost/json/object.hpp>

#include <string>

#include "bench/load/target.hpp"

namespace svc::bench {

/// Whether `status`, a job's `status` member, is one a job never leaves.
bool is_terminal_status(const std::string& status);

/// What each create asks for.
struct image_spec {
  std::string prompt = "a lighthouse at dusk";
  int width = 256;
  int height = 256;
};

/// The request line and the common fields, up to (not including) the blank
/// line; no `X-Api-Key` when `key` is empty (signed output URLs).
std::string request_head(const char* method, const std::string& path, const target& t, const std::string& key);

/// `GET path` with no body.
std::string get_request(const std::string& path, const target& t, const std::string& key);

/// `POST path` with `body` as JSON.
std::string post_json_request(const std::string& path, const target& t, const std::string& key,
                              const boost::json::object& body);

/// `POST path` with an empty body (cancel).
std::string post_empty_request(const std::string& path, const target& t, const std::string& key);

/// `POST /v1/images` with `spec` as its JSON body.
std::string create_image_request(const target& t, const std::string& key, const image_spec& spec);

/// `GET /v1/images/{id}`; with `wait_seconds` > 0 it adds `Prefer: wait=N`, which
/// makes svcd hold the answer until the job is terminal or N seconds passed.
std::string get_image_request(const target& t, const std::string& key, const std::string& id, long wait_seconds);

/// `POST /v1/files` as multipart/form-data: `bytes` as the `file` part
/// (`upload.png`) and `purpose=init_image`.
std::string upload_file_request(const target& t, const std::string& key, const std::string& bytes);

} // namespace svc::bench
