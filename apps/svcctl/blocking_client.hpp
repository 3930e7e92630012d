#pragma once
// A minimal blocking HTTP/1.1 client for the operator CLI (never used on the
// server's request path).

#include <string>

namespace svc::ctl {

struct client_response {
  int status = 0;      ///< 0 when the request could not be made
  std::string body;
  std::string error;   ///< transport failure, if any
};

/// Sends one request to `base_url` (`http://host:port`) and reads the answer.
client_response blocking_request(const std::string& base_url, const std::string& method, const std::string& target,
                                 const std::string& bearer_token, const std::string& json_body);

} // namespace svc::ctl
