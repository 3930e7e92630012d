#include "http/json_body.hpp"

#include "http/respond.hpp"
#include "schema/field_reader.hpp"

namespace svc::http {

std::optional<boost::json::object> parse_json_object(const context_ptr& ctx, empty_body empty) {
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

std::optional<boost::json::object> read_json_object(const context_ptr& ctx,
                                                    std::initializer_list<std::string_view> allowed,
                                                    empty_body empty) {
  auto body = parse_json_object(ctx, empty);
  if (!body)
    return body;
  schema::field_reader fields{*body, schema::json_discipline::strict};
  fields.only(allowed);
  if (fields.error()) {
    reply_error(ctx, *fields.error());
    return std::nullopt;
  }
  return body;
}

} // namespace svc::http
