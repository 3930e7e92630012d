#pragma once
// svcctl's one way to talk to svcd: a request to the admin listener, whose
// answer goes to stdout (success) or stderr (error) and becomes the exit code.

#include <functional>
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

/// Prints `{"error": {"code": code, "message": message}}` on stderr and returns `exit`.
int print_error(const std::string& code, const std::string& message, int exit);

} // namespace svc::ctl
