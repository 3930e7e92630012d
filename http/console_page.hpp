#pragma once
// The operator console served by the admin listener at `/`: one HTML page with
// its stylesheet and script inlined (compiled in from http/console/), and the
// Content-Security-Policy that lets exactly those two run and nothing else.

#include <string>

namespace svc::http {

/// The page and the policy it must be served with.
struct console_page {
  std::string html;
  std::string content_security_policy; ///< pins the inline style and script by SHA-256
};

/// The console, assembled once from the compiled-in files.
const console_page& operator_console();

} // namespace svc::http
