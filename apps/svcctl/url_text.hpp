#pragma once
// Percent-encoding of the ids and filter values svcctl puts in admin URLs:
// the one place to change how svcctl encodes URL text.

#include <string>

namespace svc::ctl {

/// `text` with every byte but unreserved ones (RFC 3986: ALPHA DIGIT - . _ ~) as %XX.
std::string percent_encode(const std::string& text);

} // namespace svc::ctl
