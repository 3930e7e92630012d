// Every JSON body a client may send to a create or update route, parsed as
// the handlers do (non-throwing, depth 32) and validated by the schema.
#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "schema/generation_request.hpp"
#include "schema/webhook_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  boost::json::error_code ec;
  boost::json::parse_options opts;
  opts.max_depth = 32;
  auto v = boost::json::parse(text, ec, {}, opts);
  if (ec || !v.is_object())
    return 0;
  const auto& body = v.as_object();
  switch (data[0] % 6) {
    case 0: svc::schema::validate_image_request(body); break;
    case 1: svc::schema::validate_video_request(body); break;
    case 2: svc::schema::validate_webhook_endpoint_create(body); break;
    case 3: svc::schema::validate_webhook_endpoint_update(body); break;
    case 4: svc::schema::validate_test_fire_request(body); break;
    default: svc::schema::validate_replay_request(body, svc::core::time_point{}); break;
  }
  return 0;
}
