#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/api_reference.hpp"
#include "schema/error_page.hpp"

namespace svc::http {

void get_error_docs(const context_ptr& ctx) {
  static const std::string page = schema::error_page_html();
  reply_body(ctx, 200, page, "text/html; charset=utf-8");
}

void get_api_reference(const context_ptr& ctx) {
  reply_body(ctx, 200, std::string{schema::api_reference_html()}, "text/html; charset=utf-8");
}

// application/yaml is the media type RFC 9512 registers for YAML; text/yaml and application/x-yaml never were.
void get_openapi_yaml(const context_ptr& ctx) {
  reply_body(ctx, 200, std::string{schema::openapi_yaml()}, "application/yaml");
}

} // namespace svc::http
