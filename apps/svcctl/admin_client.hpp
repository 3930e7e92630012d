#pragma once
// svcctl's one way to talk to svcd: a request to the admin listener, whose
// answer goes to stdout (success) or stderr (error) and becomes the exit code.

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include <boost/json.hpp>

#include "apps/svcctl/command.hpp"

namespace svc::ctl {

/// Writes a successful answer in a command's own format (CSV, JSON lines...).
using answer_printer = std::function<void(const boost::json::value& answer, std::ostream& out)>;

/// Sends `method target` (with `body` as JSON unless the method is GET) to the
/// admin URL of `g` with its token; prints the answer (a success through
/// `print` when given, else as svcd sent it); returns the exit code.
int send_admin_request(const global_options& g, const std::string& method, const std::string& target,
                       const boost::json::object& body = {}, const answer_printer& print = {});

/// Sends `method target` like `send_admin_request`, but hands a successful
/// answer back parsed instead of printing it; on failure prints the error
/// and sets `exit` (an answer 404, or 503 `owner_unavailable`, is handed
/// back as nullopt with `exit` 0 when `not_yet_ok`, for a poll that waits
/// for something to appear or for its owner to be reachable again).
std::optional<boost::json::value> admin_json(const global_options& g, const std::string& method,
                                             const std::string& target, const boost::json::object& body, int& exit,
                                             bool not_yet_ok = false);

/// Prints `{"error": {"code": code, "message": message}}` on stderr and returns `exit`.
int print_error(const std::string& code, const std::string& message, int exit);

} // namespace svc::ctl
