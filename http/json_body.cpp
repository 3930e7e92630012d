#include "http/json_body.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "http/respond.hpp"

namespace svc::http {
namespace json = boost::json;
using schema::error_code;

std::optional<json::object> parse_json_object(const context_ptr& ctx, empty_body empty) {
  auto& body = ctx->req.body();
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (empty == empty_body::allowed)
      return json::object{};
    reply_error(ctx, schema::make_api_error(error_code::invalid_body, {{"detail", "the body is empty; send a JSON object"}}));
    return std::nullopt;
  }
  if (auto it = ctx->req.find(beast::http::field::content_type); it != ctx->req.end()) {
    std::string_view type = it->value();
    if (!beast::iequals(type.substr(0, type.find(';')), "application/json")) {
      reply_error(ctx, schema::make_api_error(error_code::unsupported_media_type,
                                              {{"detail", "Send the body as application/json."}}));
      return std::nullopt;
    }
  }
  json::error_code ec;
  json::parse_options opts;
  opts.max_depth = 32;
  auto v = json::parse(body, ec, {}, opts);
  if (ec || !v.is_object()) {
    reply_error(ctx, schema::make_api_error(error_code::invalid_body,
                                            {{"detail", ec ? "not valid JSON (" + ec.message() + ")"
                                                           : std::string{"not a JSON object"}}}));
    return std::nullopt;
  }
  return std::move(v.as_object());
}

std::optional<json::object> read_json_object(const context_ptr& ctx, std::initializer_list<std::string_view> allowed,
                                            empty_body empty) {
  auto v = parse_json_object(ctx, empty);
  if (!v)
    return v;
  for (auto& [key, value] : *v) {
    bool known = false;
    for (auto a : allowed)
      known = known || a == std::string_view{key};
    if (!known) {
      reply_error(ctx, schema::make_api_error(error_code::unknown_parameter, {}, std::string{key}.substr(0, 100)));
      return std::nullopt;
    }
  }
  return v;
}

const json::value* body_fields::find(std::string_view name, bool required) {
  if (error)
    return nullptr;
  auto* v = object_.if_contains(name);
  if (!v && required)
    fail(name, "is required");
  return v;
}

void body_fields::fail(std::string_view name, std::string detail) {
  if (!error)
    error = schema::make_api_error(error_code::invalid_parameter, {{"detail", std::move(detail)}}, std::string{name});
}

std::optional<int64_t> body_fields::integer(std::string_view name, int64_t min, int64_t max, bool required) {
  auto* v = find(name, required);
  if (!v)
    return std::nullopt;
  std::optional<int64_t> n;
  if (auto* i = v->if_int64())
    n = *i;
  else if (auto* u = v->if_uint64(); u && *u <= static_cast<uint64_t>(INT64_MAX))
    n = static_cast<int64_t>(*u);
  if (!n || *n < min || *n > max) {
    fail(name, "must be an integer between " + std::to_string(min) + " and " + std::to_string(max));
    return std::nullopt;
  }
  return n;
}

std::optional<double> body_fields::number(std::string_view name, double min, double max, bool required) {
  auto* v = find(name, required);
  if (!v)
    return std::nullopt;
  std::optional<double> d;
  if (v->is_number())
    d = v->to_number<double>();
  if (!d || !std::isfinite(*d) || *d < min || *d > max) {
    fail(name, "must be a number between " + json::serialize(json::value(min)) + " and "
                 + json::serialize(json::value(max)));
    return std::nullopt;
  }
  return d;
}

std::optional<std::string> body_fields::string(std::string_view name, std::size_t max_len, bool required) {
  auto* v = find(name, required);
  if (!v)
    return std::nullopt;
  auto* s = v->if_string();
  if (!s || s->size() > max_len || (required && s->empty())) {
    fail(name, "must be a string of " + std::string{required ? "1" : "0"} + " to " + std::to_string(max_len)
                 + " characters");
    return std::nullopt;
  }
  return std::string{s->data(), s->size()};
}

std::optional<std::vector<std::string>> body_fields::strings(std::string_view name, bool required) {
  auto* v = find(name, required);
  if (!v)
    return std::nullopt;
  auto* a = v->if_array();
  std::vector<std::string> out;
  if (a)
    for (auto& item : *a) {
      if (!item.is_string()) {
        a = nullptr;
        break;
      }
      out.emplace_back(item.get_string());
    }
  if (!a) {
    fail(name, "must be an array of strings");
    return std::nullopt;
  }
  return out;
}

} // namespace svc::http
