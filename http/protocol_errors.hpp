#pragma once
// The catalogue error that answers a request the transport could not read.

#include <string>

#include "core/config.hpp"
#include "http/transport.hpp"
#include "schema/errors.hpp"

namespace svc::http {

/// The error for `e` (`detail`: the parser's words for a malformed request),
/// naming the configured limit where one was exceeded.
schema::api_error protocol_api_error(protocol_error e, const std::string& detail, const core::config& cfg);

} // namespace svc::http
