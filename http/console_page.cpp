#include "http/console_page.hpp"

#include <stdexcept>
#include <string_view>

#include "core/crypto.hpp"

namespace svc::embedded {
// Generated from http/console/ by cmake/embed.cmake.
extern const std::string_view console_html;
extern const std::string_view console_css;
extern const std::string_view console_js;
} // namespace svc::embedded

namespace svc::http {
namespace {

void replace_once(std::string& text, std::string_view marker, std::string_view by) {
  auto at = text.find(marker);
  if (at == std::string::npos)
    throw std::logic_error{"console.html lacks " + std::string{marker}};
  text.replace(at, marker.size(), by);
}

std::string sha256_source(std::string_view text) {
  auto d = core::sha256(text);
  return "'sha256-" + core::base64_encode({reinterpret_cast<const char*>(d.data()), d.size()}) + "'";
}

console_page assemble() {
  console_page page;
  page.html = std::string{embedded::console_html};
  replace_once(page.html, "@CONSOLE_CSS@", embedded::console_css);
  replace_once(page.html, "@CONSOLE_JS@", embedded::console_js);
  // Hashes instead of 'unsafe-inline': a string that slipped into the DOM
  // still could not run. connect-src 'self' keeps the token on this origin;
  // form-action 'none' stops any native form submission (which could put
  // the token into a URL).
  page.content_security_policy = "default-src 'none'; script-src " + sha256_source(embedded::console_js)
                                 + "; style-src " + sha256_source(embedded::console_css)
                                 + "; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
                                   "frame-ancestors 'none'";
  return page;
}

} // namespace

const console_page& operator_console() {
  static const console_page page = assemble();
  return page;
}

} // namespace svc::http
