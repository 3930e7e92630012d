#pragma once
// What endpoint actors post deliveries through. The implementation (the
// outbound HTTPS client) lives in clients/, which actors may not include; the
// server hands one to the runtime.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/described.hpp"
#include "schema/webhook_records.hpp"

namespace svc::actors {

/// One delivery attempt as sent: `POST url` with these headers and body.
struct webhook_post {
  std::string url; ///< `https://host[:port]/path`
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

/// How an attempt ended.
struct webhook_answer {
  std::optional<int> status;  ///< the receiver's status; absent for transport errors
  schema::delivery_error error = schema::delivery_error::none; ///< `none` only for a 2xx
  std::string detail;         ///< why it failed, in words
  std::string body;           ///< the first 1 KiB of the receiver's answer
  std::chrono::milliseconds duration{0}; ///< from the start of the attempt to its end
  bool succeeded() const { return error == schema::delivery_error::none; }
};
SVC_DESCRIBE(webhook_answer, (status, error, detail, body, duration))

class webhook_transport {
public:
  virtual ~webhook_transport() = default;
  /// Posts on the transport's own threads within its deadline; `done` is
  /// called exactly once, on any thread, so it must only hand the answer over.
  virtual void post(webhook_post request, std::function<void(webhook_answer)> done) = 0;
};

} // namespace svc::actors
