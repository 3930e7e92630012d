#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {

void add_lora(const context_ptr& ctx) {
  auto lora = read_fields(ctx, {"slug", "name", "description", "keywords"}, [](schema::field_reader& f) {
    schema::lora_record l;
    l.slug = f.text("slug", 1, 64, true).value_or("");
    l.name = f.text("name", 1, 100, true).value_or("");
    l.description = f.text("description", 0, 1000).value_or("");
    l.keywords = f.strings("keywords").value_or(std::vector<std::string>{});
    return l;
  });
  if (!lora)
    return;
  ask<schema::lora_record>(
    ctx, ctx->svc.actors().loras, [ctx](schema::lora_record& r) { reply_json(ctx, 201, schema::lora_view(r)); },
    actors::create_atom::value, *lora);
}

} // namespace svc::http
