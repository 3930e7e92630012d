#pragma once
// Requests as a cluster node routes them: one built from its method, target
// and body, and an API key whose secret names a chosen shard.

#include <string>

#include "core/shard.hpp"
#include "http/transport.hpp"
#include "schema/api_key_format.hpp"

namespace svc::test {

/// An HTTP/1.1 request with `body`.
inline http::http_request make_request(boost::beast::http::verb method, std::string target, std::string body = {}) {
  http::http_request r{method, target, 11};
  r.body() = std::move(body);
  return r;
}

/// A well-formed API key whose secret names `shard`.
inline std::string key_on(core::shard_id shard) {
  static const char* hex = "0123456789abcdef";
  std::string secret{hex[shard >> 4], hex[shard & 15]};
  secret += std::string(62, 'a');
  return schema::api_key_plaintext(secret);
}

} // namespace svc::test
