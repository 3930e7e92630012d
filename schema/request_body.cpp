#include "schema/request_body.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/json.hpp>

namespace svc::schema {
namespace json = boost::json;
namespace {

// Media types are case-insensitive (RFC 9110); parameters such as charset are not looked at.
bool is_json_media_type(std::string_view content_type) {
  return boost::beast::iequals(content_type.substr(0, content_type.find(';')), "application/json");
}

} // namespace

checked<json::object> parse_request_body(std::string_view body, std::optional<std::string_view> content_type,
                                         empty_body empty) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    if (empty == empty_body::allowed)
      return json::object{};
    return make_api_error(error_code::invalid_body, {{"detail", "the body is empty; send a JSON object"}});
  }
  if (content_type && !is_json_media_type(*content_type))
    return make_api_error(error_code::unsupported_media_type, {{"detail", "Send the body as application/json."}});
  json::error_code ec;
  json::parse_options opts;
  opts.max_depth = 32;
  auto v = json::parse(body, ec, {}, opts);
  if (ec || !v.is_object())
    return make_api_error(error_code::invalid_body,
                          {{"detail", ec ? "not valid JSON (" + ec.message() + ")" : std::string{"not a JSON object"}}});
  return std::move(v.as_object());
}

} // namespace svc::schema
