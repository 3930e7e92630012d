#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/error_page.hpp"

namespace svc::http {

void get_error_docs(const context_ptr& ctx) {
  static const std::string page = schema::error_page_html();
  reply_body(ctx, 200, page, "text/html; charset=utf-8");
}

} // namespace svc::http
