#pragma once
// Setup calls before a run (register webhook endpoints, create the jobs a
// read run reads): one request at a time on one keep-alive connection, each
// waited for; a 429 is retried after its Retry-After.

#include <memory>
#include <string>

#include "bench/load/http_connection.hpp"
#include "bench/load/target.hpp"

namespace svc::bench {

class blocking_client {
public:
  explicit blocking_client(const target& server);

  /// Sends `request` (a complete message) and returns its outcome.
  exchange call(std::string request);

  /// Like `call`, but a 429 is sent again after its Retry-After (at least
  /// 1 s), `attempts` times in all: svcd's default buckets are small.
  exchange call_retrying(const std::string& request, int attempts = 20);

private:
  net::io_context io_;
  std::shared_ptr<http_connection> connection_;
};

} // namespace svc::bench
