#include "http/admin/admin_handlers.hpp"
#include "http/console_page.hpp"
#include "http/respond.hpp"

namespace svc::http {

// Served without the token: the page holds no data and no secret. It asks for
// the token, keeps it in the tab's sessionStorage and sends it as a bearer
// header on its own requests, so the admin listener keeps one credential (no
// cookie every admin POST would then have to guard against cross-site use).
void get_console(const context_ptr& ctx) {
  auto& page = operator_console();
  reply_body(ctx, 200, page.html, "text/html; charset=utf-8",
             {{"Content-Security-Policy", page.content_security_policy},
              {"X-Content-Type-Options", "nosniff"},
              {"Referrer-Policy", "no-referrer"},
              {"Cache-Control", "no-store"}});
}

} // namespace svc::http
