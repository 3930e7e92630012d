#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {

void add_lora(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"slug", "name", "description", "keywords"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  schema::lora_record l;
  l.slug = f.text("slug", 1, 64, true).value_or("");
  l.name = f.text("name", 1, 100, true).value_or("");
  l.description = f.text("description", 0, 1000).value_or("");
  l.keywords = f.strings("keywords").value_or(std::vector<std::string>{});
  if (f.error())
    return reply_error(ctx, *f.error());
  ask<schema::lora_record>(
    ctx, ctx->svc.actors().loras, [ctx](schema::lora_record& r) { reply_json(ctx, 201, schema::lora_view(r)); },
    actors::create_atom::value, l);
}

} // namespace svc::http
