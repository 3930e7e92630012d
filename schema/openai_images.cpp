#include "schema/openai_images.hpp"

#include <charconv>
#include <optional>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

namespace svc::schema {
namespace json = boost::json;
namespace {

api_error invalid_openai_field(std::string param, std::string detail) {
  return make_api_error(error_code::invalid_parameter, {{"detail", std::move(detail)}}, std::move(param));
}

// A present field; JSON null counts as absent, as in every Svc body.
const json::value* present_field(const json::object& body, std::string_view name) {
  auto* v = body.if_contains(name);
  return v && !v->is_null() ? v : nullptr;
}

// The whole of `text` as a positive decimal number, else nothing.
std::optional<int> whole_number(std::string_view text) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n <= 0)
    return std::nullopt;
  return n;
}

// `size`: "auto" leaves the model's default; "WxH" becomes `width` and `height`,
// whose range the create's rules judge.
std::optional<api_error> read_size(const json::object& body, json::object& svc) {
  auto* v = present_field(body, "size");
  if (!v)
    return std::nullopt;
  auto* text = v->if_string();
  if (text && *text == "auto")
    return std::nullopt;
  std::string_view s = text ? std::string_view{*text} : std::string_view{};
  auto x = s.find('x');
  auto width = x == std::string_view::npos ? std::nullopt : whole_number(s.substr(0, x));
  auto height = x == std::string_view::npos ? std::nullopt : whole_number(s.substr(x + 1));
  if (!width || !height)
    return invalid_openai_field("size", "must be WIDTHxHEIGHT in pixels (such as 1024x1024) or auto");
  svc["width"] = *width;
  svc["height"] = *height;
  return std::nullopt;
}

// Replaces the quoted name `from` in a message by `to` ("'width'" -> "'size' (width)").
std::string renamed(std::string message, std::string_view from, std::string_view to) {
  auto quoted = "'" + std::string{from} + "'";
  if (auto at = message.find(quoted); at != std::string::npos)
    message.replace(at, quoted.size(), to);
  return message;
}

} // namespace

checked<openai_image_request> read_openai_image_request(const json::object& body) {
  openai_image_request out;
  for (std::string_view name : {"prompt", "model"})
    if (auto* v = body.if_contains(name))
      out.svc_body[name] = *v;
  if (auto* n = body.if_contains("n"))
    out.svc_body["num_outputs"] = *n;
  if (auto e = read_size(body, out.svc_body))
    return *e;
  if (auto* f = present_field(body, "response_format")) {
    auto* name = f->if_string();
    if (name && *name == "b64_json")
      out.format = openai_format::b64_json;
    else if (!name || *name != "url")
      return invalid_openai_field("response_format", "must be url or b64_json");
  }
  if (auto* stream = present_field(body, "stream")) {
    if (!stream->is_bool())
      return invalid_openai_field("stream", "must be a boolean");
    if (stream->as_bool())
      return invalid_openai_field("stream", "is not supported: the answer comes once, when the image is done");
  }
  return out;
}

json::object openai_form_fields(const std::map<std::string, std::string>& parts) {
  json::object out;
  for (auto& [name, text] : parts) {
    if (name == "n")
      if (auto n = whole_number(text)) {
        out[name] = *n;
        continue;
      }
    if (name == "stream" && (text == "true" || text == "false")) {
      out[name] = text == "true";
      continue;
    }
    out[name] = text;
  }
  return out;
}

api_error as_openai_error(api_error e) {
  static const std::pair<std::string_view, std::string_view> names[] = {
    {"width", "'size' (width)"}, {"height", "'size' (height)"}, {"num_outputs", "'n'"}};
  for (auto& [svc_name, openai_name] : names)
    if (e.param == svc_name) {
      e.message = renamed(std::move(e.message), svc_name, openai_name);
      e.param = svc_name == "num_outputs" ? "n" : "size";
      break;
    }
  return e;
}

json::object openai_images_view(int64_t created_unix, const std::vector<std::string>& values, openai_format format) {
  json::array data;
  data.reserve(values.size());
  auto key = format == openai_format::url ? "url" : "b64_json";
  for (auto& v : values)
    data.push_back(json::object{{key, v}});
  return {{"created", created_unix}, {"data", std::move(data)}};
}

} // namespace svc::schema
