#include "http/json_body.hpp"

#include "http/respond.hpp"
#include "schema/field_reader.hpp"

namespace svc::http {

std::optional<boost::json::object> parse_json_object(const context_ptr& ctx, schema::empty_body empty) {
  std::optional<std::string_view> content_type;
  if (auto it = ctx->req.find(beast::http::field::content_type); it != ctx->req.end())
    content_type = it->value();
  auto body = schema::parse_request_body(ctx->req.body(), content_type, empty);
  if (!body) {
    reply_error(ctx, body.error());
    return std::nullopt;
  }
  return std::move(body.value());
}

bool read_empty_object(const context_ptr& ctx) {
  auto body = parse_json_object(ctx, schema::empty_body::allowed);
  if (!body)
    return false;
  schema::field_reader fields{*body, schema::json_discipline::strict};
  fields.only({});
  if (fields.error())
    reply_error(ctx, *fields.error());
  return fields.ok();
}

} // namespace svc::http
