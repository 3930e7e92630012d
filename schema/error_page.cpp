#include "schema/error_page.hpp"

#include "schema/errors.hpp"
#include "schema/html_escape.hpp"

namespace svc::schema {

std::string error_page_html() {
  std::string html =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Svc API errors</title>\n"
    "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}"
    "code{background:#f3f3f3;padding:0 .2em}section{border-top:1px solid #ddd;padding:.5rem 0}</style>\n"
    "</head><body>\n<h1>Svc API errors</h1>\n"
    "<p>Every error answers with <code>{\"error\": {type, code, message, request_id, doc_url}}</code>. "
    "<code>doc_url</code> links to the section of its code below.</p>\n";
  for (auto& e : error_catalogue()) {
    html += "<section id=\"" + std::string{e.name} + "\">\n<h2><a href=\"#" + std::string{e.name} + "\">"
            + std::string{e.name} + "</a></h2>\n<p>HTTP " + std::to_string(e.status) + " &middot; type <code>"
            + std::string{to_string(e.type)} + "</code></p>\n<p>" + escape_html(e.description)
            + "</p>\n<p>Message: <code>" + escape_html(e.message_template) + "</code></p>\n</section>\n";
  }
  html += "</body></html>\n";
  return html;
}

} // namespace svc::schema
