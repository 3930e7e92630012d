#include "cog_schema.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>

namespace svc::test {
namespace {

namespace json = boost::json;

// One field of the model's predict() signature, as cog describes it.
struct input_field {
  std::string name;
  std::string type;            // string, integer or number; for an enum the type of its members
  std::string description;
  json::value fallback;        // the default; null when there is none
  std::optional<double> minimum, maximum;
  bool required = false;
  bool uri = false;            // a Path input: a data: URI or an http(s) URL
  std::vector<std::string> choices; // an enum, described as its own component named after the field
};

input_field text(std::string name, std::string description, json::value fallback = nullptr) {
  return {std::move(name), "string", std::move(description), std::move(fallback), {}, {}, false, false, {}};
}

input_field whole(std::string name, std::string description, json::value fallback, std::optional<double> lo,
                  std::optional<double> hi) {
  return {std::move(name), "integer", std::move(description), std::move(fallback), lo, hi, false, false, {}};
}

input_field uri(std::string name, std::string description) {
  auto f = text(std::move(name), std::move(description));
  f.uri = true;
  return f;
}

// The x-order of each field is its place in this list, as cog numbers predict()'s arguments.
std::vector<input_field> fields_of(cog_model_kind kind) {
  auto prompt = text("prompt", "Input prompt");
  prompt.required = true;
  std::vector<input_field> fields{
    prompt,
    text("negative_prompt", "Things you do not want to see", ""),
    whole("width", "Width of the output in pixels", 1024, 256, 2048),
    whole("height", "Height of the output in pixels", 1024, 256, 2048),
    whole("seed", "Random seed. Leave blank to randomize the seed", nullptr, {}, {}),
  };
  if (kind == cog_model_kind::image) {
    fields.push_back(whole("num_outputs", "Number of images to output", 1, 1, 4));
    fields.push_back(whole("num_inference_steps", "Number of denoising steps", 30, 1, 100));
    fields.push_back(uri("image", "Input image for img2img mode"));
    fields.push_back({"prompt_strength", "number", "Prompt strength when using img2img; 1.0 replaces the image entirely",
                      0.8, 0.0, 1.0, false, false, {}});
    fields.push_back(text("lora_urls", "LoRA files to load, separated by |", ""));
    fields.push_back(text("lora_scales", "LoRA weights in the order of lora_urls, separated by |", ""));
    auto scheduler = text("scheduler", "Scheduler", "K_EULER");
    scheduler.choices = {"K_EULER", "DDIM"};
    fields.push_back(scheduler);
  } else {
    fields.push_back(whole("num_frames", "Number of frames to generate", 81, 1, 241));
    fields.push_back(whole("fps", "Frames per second of the output video", 16, 1, 60));
    fields.push_back(whole("num_inference_steps", "Number of denoising steps", 30, 1, 100));
    fields.push_back(uri("image", "Input image for image-to-video mode"));
  }
  return fields;
}

// pydantic's title: "num_inference_steps" -> "Num Inference Steps".
std::string title_of(const std::string& name) {
  std::string out;
  bool word_start = true;
  for (char c : name) {
    if (c == '_') {
      out += ' ';
      word_start = true;
      continue;
    }
    out += word_start && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    word_start = false;
  }
  return out;
}

json::value limit_value(const input_field& f, double limit) {
  if (f.type == "integer")
    return static_cast<std::int64_t>(limit);
  return limit;
}

json::object property_of(const input_field& f, std::size_t order) {
  json::object p{{"title", title_of(f.name)}, {"x-order", order}, {"description", f.description}};
  if (!f.choices.empty())
    p["allOf"] = json::array{json::object{{"$ref", "#/components/schemas/" + f.name}}};
  else
    p["type"] = f.type;
  if (f.uri)
    p["format"] = "uri";
  if (!f.fallback.is_null())
    p["default"] = f.fallback;
  if (f.minimum)
    p["minimum"] = limit_value(f, *f.minimum);
  if (f.maximum)
    p["maximum"] = limit_value(f, *f.maximum);
  return p;
}

json::object ref(const std::string& name) { return {{"$ref", "#/components/schemas/" + name}}; }

json::object json_content(json::object schema) {
  return {{"application/json", {{"schema", std::move(schema)}}}};
}

// A route as FastAPI lists it: an optional request body (then also a 422) and a 200 whose schema is
// `response`, or open when that is null.
json::object operation(const std::string& summary, const std::string& id, const char* request, const char* response) {
  json::object answer = response ? ref(response) : json::object{{"title", "Response " + summary}};
  json::object responses{{"200", {{"description", "Successful Response"}, {"content", json_content(std::move(answer))}}}};
  json::object op{{"summary", summary}, {"operationId", id}};
  if (request) {
    op["requestBody"] = {{"content", json_content(ref(request))}};
    op["parameters"] = json::array{
      json::object{{"name", "prefer"}, {"in", "header"}, {"required", false}, {"schema", {{"type", "string"}, {"title", "Prefer"}}}}};
    responses["422"] = {{"description", "Validation Error"}, {"content", json_content(ref("HTTPValidationError"))}};
  }
  op["responses"] = std::move(responses);
  return op;
}

json::object enumeration(const std::string& title, json::array members) {
  return {{"title", title}, {"description", "An enumeration."}, {"enum", std::move(members)}, {"type", "string"}};
}

json::object error(const std::string& field, std::string msg, std::string type) {
  return {{"loc", json::array{"body", "input", field}}, {"msg", std::move(msg)}, {"type", std::move(type)}};
}

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::optional<std::int64_t> as_integer(const json::value& v) {
  if (v.is_int64())
    return v.as_int64();
  if (v.is_uint64() && v.as_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v.as_uint64());
  if (v.is_double() && std::trunc(v.as_double()) == v.as_double() && std::abs(v.as_double()) < 9e18)
    return static_cast<std::int64_t>(v.as_double());
  if (v.is_string()) { // pydantic coerces "42"
    std::int64_t out = 0;
    auto s = v.as_string();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc{} && end == s.data() + s.size() && !s.empty())
      return out;
  }
  return std::nullopt;
}

std::optional<double> as_number(const json::value& v) {
  if (v.is_number())
    return v.to_number<double>();
  if (v.is_string()) {
    std::string s{v.as_string()};
    char* end = nullptr;
    double out = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(out))
      return out;
  }
  return std::nullopt;
}

// The value `f` takes from `v`, or the error that refuses it.
std::variant<json::value, json::object> coerce(const input_field& f, const json::value& v) {
  if (f.type == "integer" || f.type == "number") {
    json::value out;
    double n = 0;
    if (f.type == "integer") {
      auto i = as_integer(v);
      if (!i)
        return error(f.name, "value is not a valid integer", "type_error.integer");
      out = *i;
      n = static_cast<double>(*i);
    } else {
      auto d = as_number(v);
      if (!d)
        return error(f.name, "value is not a valid float", "type_error.float");
      out = *d;
      n = *d;
    }
    if (f.minimum && n < *f.minimum) {
      auto e = error(f.name, "ensure this value is greater than or equal to " + number_text(*f.minimum), "value_error.number.not_ge");
      e["ctx"] = {{"limit_value", limit_value(f, *f.minimum)}};
      return e;
    }
    if (f.maximum && n > *f.maximum) {
      auto e = error(f.name, "ensure this value is less than or equal to " + number_text(*f.maximum), "value_error.number.not_le");
      e["ctx"] = {{"limit_value", limit_value(f, *f.maximum)}};
      return e;
    }
    return out;
  }
  std::string s;
  if (v.is_string())
    s = v.as_string();
  else if (v.is_number()) // pydantic v1 turns numbers into their text
    s = json::serialize(v);
  else
    return error(f.name, "str type expected", "type_error.str");
  if (!f.choices.empty() && std::find(f.choices.begin(), f.choices.end(), s) == f.choices.end()) {
    std::string permitted;
    json::array members;
    for (auto& c : f.choices) {
      permitted += (permitted.empty() ? "'" : ", '") + c + "'";
      members.push_back(json::string{c});
    }
    auto e = error(f.name, "value is not a valid enumeration member; permitted: " + permitted, "type_error.enum");
    e["ctx"] = {{"enum_values", std::move(members)}};
    return e;
  }
  if (f.uri && s.rfind("data:", 0) != 0 && s.rfind("http://", 0) != 0 && s.rfind("https://", 0) != 0)
    return error(f.name, "invalid or missing URL scheme", "value_error.url.scheme");
  return json::value(s);
}

} // namespace

json::object cog_openapi(cog_model_kind kind) {
  auto fields = fields_of(kind);
  json::object properties, schemas;
  json::array required;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    properties[fields[i].name] = property_of(fields[i], i);
    if (fields[i].required)
      required.push_back(json::string{fields[i].name});
    if (!fields[i].choices.empty()) {
      json::array members;
      for (auto& c : fields[i].choices)
        members.push_back(json::string{c});
      schemas[fields[i].name] = enumeration(fields[i].name, std::move(members));
    }
  }
  json::object file{{"type", "string"}, {"format", "uri"}};
  schemas["Input"] = {{"title", "Input"}, {"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
  schemas["Output"] = kind == cog_model_kind::image
                        ? json::object{{"title", "Output"}, {"type", "array"}, {"items", file}}
                        : json::object{{"title", "Output"}, {"type", "string"}, {"format", "uri"}};
  schemas["Status"] = enumeration("Status", {"starting", "processing", "succeeded", "canceled", "failed"});
  schemas["WebhookEvent"] = enumeration("WebhookEvent", {"start", "output", "logs", "completed"});
  json::object text_type{{"type", "string"}}, time_type{{"type", "string"}, {"format", "date-time"}};
  schemas["PredictionRequest"] = {
    {"title", "PredictionRequest"},
    {"type", "object"},
    {"properties",
     {{"id", text_type},
      {"input", ref("Input")},
      {"webhook", {{"type", "string"}, {"format", "uri"}, {"minLength", 1}, {"maxLength", 65536}}},
      {"webhook_events_filter",
       {{"type", "array"}, {"items", ref("WebhookEvent")}, {"default", {"start", "output", "logs", "completed"}}}},
      {"context", {{"type", "object"}, {"additionalProperties", text_type}}},
      {"created_at", time_type}}}};
  schemas["PredictionResponse"] = {
    {"title", "PredictionResponse"},
    {"type", "object"},
    {"properties",
     {{"id", text_type}, {"input", ref("Input")}, {"output", ref("Output")}, {"status", ref("Status")},
      {"logs", text_type}, {"error", text_type}, {"metrics", {{"type", "object"}}}, {"version", text_type},
      {"created_at", time_type}, {"started_at", time_type}, {"completed_at", time_type}}}};
  schemas["ValidationError"] = {
    {"title", "ValidationError"},
    {"type", "object"},
    {"required", {"loc", "msg", "type"}},
    {"properties",
     {{"loc", {{"type", "array"}, {"items", {{"anyOf", {text_type, json::object{{"type", "integer"}}}}}}}},
      {"msg", text_type},
      {"type", text_type}}}};
  schemas["HTTPValidationError"] = {
    {"title", "HTTPValidationError"},
    {"type", "object"},
    {"properties", {{"detail", {{"type", "array"}, {"items", ref("ValidationError")}}}}}};
  json::object paths{
    {"/", {{"get", operation("Root", "root__get", nullptr, nullptr)}}},
    {"/health-check", {{"get", operation("Healthcheck", "healthcheck_health_check_get", nullptr, nullptr)}}},
    {"/predictions", {{"post", operation("Predict", "predict_predictions_post", "PredictionRequest", "PredictionResponse")}}},
    {"/predictions/{prediction_id}",
     {{"put", operation("Predict Idempotent", "predict_idempotent_predictions__prediction_id__put", "PredictionRequest",
                        "PredictionResponse")}}},
    {"/predictions/{prediction_id}/cancel",
     {{"post", operation("Cancel", "cancel_predictions__prediction_id__cancel_post", nullptr, nullptr)}}},
    {"/shutdown", {{"post", operation("Start Shutdown", "start_shutdown_shutdown_post", nullptr, nullptr)}}}};
  return {{"openapi", "3.0.2"},
          {"info", {{"title", "Cog"}, {"version", "0.1.0"}}},
          {"paths", std::move(paths)},
          {"components", {{"schemas", std::move(schemas)}}}};
}

std::variant<json::object, json::array> cog_check_input(cog_model_kind kind, const json::value& input) {
  if (!input.is_null() && !input.is_object())
    return json::array{json::object{
      {"loc", json::array{"body", "input"}}, {"msg", "value is not a valid dict"}, {"type", "type_error.dict"}}};
  json::array errors;
  json::object out;
  for (auto& f : fields_of(kind)) {
    const json::value* v = input.is_object() ? input.as_object().if_contains(f.name) : nullptr;
    if (!v || v->is_null()) {
      if (f.required)
        errors.push_back(error(f.name, "Field required", "value_error.missing"));
      else if (!f.fallback.is_null())
        out[f.name] = f.fallback;
      continue;
    }
    auto taken = coerce(f, *v);
    if (auto* e = std::get_if<json::object>(&taken))
      errors.push_back(std::move(*e));
    else
      out[f.name] = std::get<json::value>(std::move(taken));
  }
  if (!errors.empty())
    return errors;
  return out;
}

} // namespace svc::test
