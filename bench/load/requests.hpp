#pragma once
// The requests the harness sends, formatted in full once (HTTP/1.1,
// keep-alive, key in X-Api-Key), so a run only copies bytes.

#include "bench/load/target.hpp"

#include <string>

namespace svc::bench {

/// What each create asks for.
struct image_spec {
  std::string prompt = "a lighthouse at dusk";
  int width = 256;
  int height = 256;
};

/// `POST /v1/images` with `spec` as its JSON body.
std::string create_image_request(const target& t, const std::string& key, const image_spec& spec);

/// `GET /v1/images/{id}`; with `wait_seconds` > 0 it adds `Prefer: wait=N`, which
/// makes svcd hold the answer until the job is terminal or N seconds passed.
std::string get_image_request(const target& t, const std::string& key, const std::string& id, long wait_seconds);

} // namespace svc::bench
