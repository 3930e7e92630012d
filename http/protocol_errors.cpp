#include "http/protocol_errors.hpp"

namespace svc::http {

schema::api_error protocol_api_error(protocol_error e, const std::string& detail, const core::config& cfg) {
  using schema::error_code;
  switch (e) {
    case protocol_error::headers_too_large:
      return schema::make_api_error(error_code::headers_too_large, {{"limit", std::to_string(cfg.header_limit)}});
    case protocol_error::body_too_large:
      return schema::make_api_error(error_code::body_too_large, {{"limit", std::to_string(cfg.body_limit)}});
    default:
      return schema::make_api_error(error_code::malformed_request, {{"detail", detail}});
  }
}

} // namespace svc::http
