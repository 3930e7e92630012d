#pragma once
// Finishing responses: every answer gets `Svc-Request-Id`, `Svc-Version` and
// the rate-limit headers of the bucket it drew from; errors get the catalogue
// envelope. This is the one place a domain error becomes an HTTP response.

#include <string>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include "http/request_context.hpp"

namespace svc::http {

using header_list = std::vector<std::pair<std::string, std::string>>;

/// Answers with a JSON body.
void reply_json(const context_ptr& ctx, unsigned status, const boost::json::value& body, header_list extra = {});

/// Answers with a body of the given content type.
void reply_body(const context_ptr& ctx, unsigned status, std::string body, std::string_view content_type,
                header_list extra = {});

/// Answers with a body read from disk while it is written (its length is
/// `body->remaining()`); a HEAD request reads none of it.
void reply_stream(const context_ptr& ctx, unsigned status, std::shared_ptr<body_stream> body,
                  std::string_view content_type, header_list extra = {});

/// Answers with the error envelope of `err`, plus `extra` headers.
void reply_error(const context_ptr& ctx, const schema::api_error& err, header_list extra = {});

/// Answers with the error of a failed actor request (timeouts become 503).
void reply_actor_error(const context_ptr& ctx, const caf::error& err);

/// 503 `storage_unavailable` for a read the store failed: never a 401 or 404
/// for data that may exist. The reason goes to the log, not to the client.
void reply_storage_failure(const context_ptr& ctx, const std::string& why);

} // namespace svc::http
