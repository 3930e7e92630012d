#include "providers/cog/cog_protocol.hpp"

#include "providers/request_fields.hpp"

#include <boost/json.hpp>

namespace svc::providers {
namespace json = boost::json;
namespace {

constexpr std::size_t cog_kept_text = 2000; // of an error or the logs, for messages

std::string cog_text(const json::value* v) {
  if (!v || !v->is_string())
    return {};
  return std::string{v->as_string()};
}

// The last `n` characters: the end of a log is where the news is.
std::string cog_tail(std::string s, std::size_t n) { return s.size() > n ? s.substr(s.size() - n) : s; }

template <class Item>
std::string cog_joined(const std::vector<Item>& items, std::string (*text)(const Item&)) {
  std::string out;
  for (auto& i : items)
    out += (out.empty() ? "" : "|") + text(i);
  return out;
}

std::string cog_weight_text(const lora_weight& l) {
  auto s = std::to_string(l.weight);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}
std::string cog_same(const std::string& s) { return s; }

// The value of a mapped Svc field for this render; null when it has none.
json::value cog_field_value(const std::string& field, const model_setup& setup, const cog_inputs& in) {
  auto& r = *in.request;
  if (field == "num_outputs") return r.is_video() ? json::value{} : json::value(r.num_outputs);
  if (field == "init_image") return in.init_image_uri.empty() ? json::value{} : json::value(json::string{in.init_image_uri});
  if (field == "denoise") return in.init_image_uri.empty() ? json::value{} : json::value(setup.denoise);
  if (field == "loras") return r.loras.empty() ? json::value{} : json::value(json::string{cog_joined(in.lora_files, cog_same)});
  if (field == "lora_weights") return r.loras.empty() ? json::value{} : json::value(json::string{cog_joined(r.loras, cog_weight_text)});
  return request_field(field, r);
}

// The JSON type an input must have for a Svc field.
std::string_view cog_wanted_type(const std::string& field) {
  if (field == "seed" || field == "width" || field == "height" || field == "steps" || field == "num_outputs" ||
      field == "frames" || field == "fps")
    return "integer";
  if (field == "denoise")
    return "number";
  return "string";
}

// The schema of an input, following a lone `allOf: [{$ref}]` to its component.
const json::object* cog_input_schema(const json::object& components, const json::object& property) {
  if (auto* all = property.if_contains("allOf"); all && all->is_array() && all->as_array().size() == 1)
    if (auto* ref = all->as_array()[0].if_object())
      if (auto name = cog_text(ref->if_contains("$ref")); name.rfind("#/components/schemas/", 0) == 0)
        if (auto* target = components.if_contains(name.substr(21)))
          return target->if_object();
  return &property;
}

} // namespace

json::object cog_input(const model_setup& setup, const cog_inputs& in) {
  json::object input;
  for (auto& [field, name] : setup.cog_inputs)
    if (auto v = cog_field_value(field, setup, in); !v.is_null())
      input[name] = std::move(v);
  for (auto& [name, v] : setup.cog_constants)
    input[name] = v;
  return input;
}

std::string cog_prediction_body(std::string_view id, const json::object& input, std::string_view webhook) {
  return json::serialize(json::object{{"id", id},
                                      {"input", input},
                                      {"webhook", webhook},
                                      {"webhook_events_filter", json::array{"start", "output", "logs", "completed"}}});
}

std::optional<cog_state> cog_parse_state(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  auto* o = ec ? nullptr : v.if_object();
  if (!o)
    return std::nullopt;
  cog_state s;
  s.status = cog_text(o->if_contains("status"));
  for (auto known : {"starting", "processing", "succeeded", "failed", "canceled"})
    if (s.status == known) {
      if (auto* out = o->if_contains("output"))
        s.output = *out;
      s.error = cog_text(o->if_contains("error")).substr(0, cog_kept_text);
      s.logs = cog_tail(cog_text(o->if_contains("logs")), cog_kept_text);
      return s;
    }
  return std::nullopt;
}

std::optional<double> cog_log_progress(std::string_view logs) {
  std::optional<double> last;
  for (auto bar = logs.find("%|"); bar != std::string_view::npos; bar = logs.find("%|", bar + 2)) {
    auto start = bar;
    while (start > 0 && logs[start - 1] >= '0' && logs[start - 1] <= '9' && bar - start < 3)
      --start;
    if (start < bar)
      last = std::stoi(std::string{logs.substr(start, bar - start)}) / 100.0;
  }
  return last;
}

std::string cog_refusal(int status, std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  auto* o = ec ? nullptr : v.if_object();
  std::string line = "HTTP " + std::to_string(status);
  if (!o)
    return line;
  if (auto e = cog_text(o->if_contains("error")); !e.empty())
    return line + ": " + e.substr(0, 300);
  auto* detail = o->if_contains("detail");
  if (detail && detail->is_string())
    return line + ": " + std::string{detail->as_string()}.substr(0, 300);
  if (detail && detail->is_array() && !detail->as_array().empty())
    if (auto* first = detail->as_array()[0].if_object()) {
      std::string where;
      if (auto* loc = first->if_contains("loc"); loc && loc->is_array())
        for (auto& part : loc->as_array())
          if (part.is_string())
            where = std::string{part.as_string()}; // the last part names the input
      return line + ": " + (where.empty() ? "" : where + ": ") + cog_text(first->if_contains("msg")).substr(0, 300);
    }
  return line;
}

std::string cog_health(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  auto* o = ec ? nullptr : v.if_object();
  return o ? cog_text(o->if_contains("status")) : std::string{};
}

std::vector<std::string> cog_output_uris(const json::value& output) {
  std::vector<std::string> out;
  if (output.is_string())
    out.emplace_back(output.as_string());
  else if (auto* a = output.if_array())
    for (auto& item : *a)
      if (item.is_string())
        out.emplace_back(item.as_string());
  return out;
}

std::string cog_check_inputs(std::string_view openapi, const model_setup& setup) {
  boost::system::error_code ec;
  auto v = json::parse(openapi, ec);
  const json::object* components = nullptr;
  const json::object* input = nullptr;
  if (!ec && v.is_object())
    if (auto* c = v.as_object().if_contains("components"); c && c->is_object())
      if (auto* schemas = c->as_object().if_contains("schemas"); schemas && schemas->is_object()) {
        components = &schemas->as_object();
        if (auto* i = components->if_contains("Input"))
          input = i->if_object();
      }
  const json::object* properties = nullptr;
  if (input)
    if (auto* p = input->if_contains("properties"))
      properties = p->if_object();
  if (!properties)
    return "/openapi.json has no components.schemas.Input.properties";
  for (auto& [field, name] : setup.cog_inputs) {
    auto* p = properties->if_contains(name);
    if (!p || !p->is_object())
      return "the model has no input '" + name + "' (for " + field + ")";
    auto* schema = cog_input_schema(*components, p->as_object());
    auto type = schema ? cog_text(schema->if_contains("type")) : "";
    auto want = cog_wanted_type(field);
    bool fits = type == want || (want == "number" && type == "integer") || (want == "integer" && type == "number");
    if (!type.empty() && !fits)
      return "the model's input '" + name + "' is " + type + ", but " + field + " is " + std::string{want};
    if (field == "init_image" && (!schema || cog_text(schema->if_contains("format")) != "uri"))
      return "the model's input '" + name + "' (for init_image) takes no file (format uri)";
  }
  for (auto& [name, value] : setup.cog_constants)
    if (!properties->if_contains(name))
      return "the model has no input '" + std::string{name} + "' (a constant)";
  if (auto* required = input->if_contains("required"); required && required->is_array())
    for (auto& r : required->as_array()) {
      auto name = cog_text(&r);
      bool given = setup.cog_constants.contains(name);
      for (auto& [field, mapped] : setup.cog_inputs)
        given = given || mapped == name;
      if (!name.empty() && !given)
        return "the model requires the input '" + name + "', which neither inputs nor constants give";
    }
  return {};
}

} // namespace svc::providers
