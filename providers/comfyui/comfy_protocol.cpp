#include "providers/comfyui/comfy_protocol.hpp"

#include "providers/request_fields.hpp"

#include <algorithm>

#include <boost/json.hpp>

namespace svc::providers {
namespace json = boost::json;
namespace {

std::string text_of(const json::value* v) {
  if (!v || !v->is_string())
    return {};
  return std::string{v->as_string()};
}

const json::object* object_at(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? v->if_object() : nullptr;
}

// The value a bound field takes for this render; null when the request has none.
json::value bound_value(const std::string& field, const comfy_inputs& in) {
  auto& r = *in.request;
  if (field == "num_outputs") return r.is_video() ? 1 : r.num_outputs;
  if (field == "init_image") return in.init_image.empty() ? json::value{} : json::value(json::string{in.init_image});
  if (field == "denoise") return in.init_image.empty() ? 1.0 : in.denoise;
  return request_field(field, r);
}

bool is_link_to(const json::value& v, std::string_view node, std::int64_t output) {
  auto* a = v.if_array();
  return a && a->size() == 2 && (*a)[0].is_string() && (*a)[0].as_string() == node && (*a)[1].is_int64() &&
         (*a)[1].as_int64() == output;
}

std::string percent_encoded(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// The options of a combo input spec: legacy `[[a, b], {...}]` or V3 `["COMBO", {options: [...]}]`.
const json::array* combo_options(const json::value& spec) {
  auto* a = spec.if_array();
  if (!a || a->empty())
    return nullptr;
  if (auto* legacy = (*a)[0].if_array())
    return legacy;
  if ((*a)[0].is_string() && (*a)[0].as_string() == "COMBO" && a->size() > 1)
    if (auto* opts = (*a)[1].if_object())
      if (auto* list = opts->if_contains("options"))
        return list->if_array();
  return nullptr;
}

bool lists(const json::array& options, const json::value& v) {
  for (auto& o : options)
    if (o == v)
      return true;
  return false;
}

} // namespace

std::variant<json::object, provider_error> comfy_prompt(const comfy_workflow& workflow, const comfy_inputs& in) {
  auto graph = workflow.graph;
  for (auto& [field, b] : workflow.bindings) {
    auto v = bound_value(field, in);
    if (!v.is_null())
      graph[b.node].as_object()["inputs"].as_object()[b.input] = std::move(v);
  }
  auto& loras = in.request->loras;
  if (loras.empty())
    return graph;
  std::string checkpoint;
  for (auto& [id, node] : graph)
    if (node.as_object().at("class_type") == "CheckpointLoaderSimple") {
      checkpoint = std::string{id};
      break;
    }
  if (checkpoint.empty())
    return provider_error::failed("the model's workflow " + workflow.path + " has no CheckpointLoaderSimple to chain LoRAs to");
  std::string model_from = checkpoint, clip_from = checkpoint;
  std::int64_t model_out = 0, clip_out = 1;
  std::vector<std::string> added;
  for (std::size_t i = 0; i < loras.size(); ++i) {
    auto id = "svc_lora_" + std::to_string(i + 1);
    graph[id] = json::object{{"class_type", "LoraLoader"},
                             {"inputs",
                              {{"model", json::array{json::string{model_from}, model_out}},
                               {"clip", json::array{json::string{clip_from}, clip_out}},
                               {"lora_name", in.lora_files.at(i)},
                               {"strength_model", loras[i].weight},
                               {"strength_clip", loras[i].weight}}}};
    added.push_back(id);
    model_from = clip_from = id;
    model_out = 0;
    clip_out = 1;
  }
  for (auto& [id, node] : graph) {
    if (std::find(added.begin(), added.end(), std::string{id}) != added.end())
      continue;
    for (auto& [name, v] : node.as_object()["inputs"].as_object()) {
      if (is_link_to(v, checkpoint, 0))
        v = json::array{json::string{model_from}, 0};
      else if (is_link_to(v, checkpoint, 1))
        v = json::array{json::string{clip_from}, 1};
    }
  }
  return graph;
}

std::string comfy_prompt_body(const json::object& prompt, std::string_view client_id, std::string_view prompt_id) {
  return json::serialize(json::object{{"prompt", prompt}, {"client_id", client_id}, {"prompt_id", prompt_id}});
}

std::optional<std::string> comfy_submit_refusal(int status, std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  auto* o = ec ? nullptr : v.if_object();
  const json::object* nodes = o ? object_at(*o, "node_errors") : nullptr;
  if (status == 200 && o && (!nodes || nodes->empty()) && o->if_contains("prompt_id"))
    return std::nullopt;
  if (nodes && !nodes->empty()) {
    auto& [id, entry] = *nodes->begin();
    std::string line = "the engine refused node " + std::string{id};
    if (auto* e = entry.if_object()) {
      if (auto cls = text_of(e->if_contains("class_type")); !cls.empty())
        line += " (" + cls + ")";
      if (auto* errors = e->if_contains("errors"); errors && errors->is_array() && !errors->as_array().empty())
        if (auto* first = errors->as_array()[0].if_object()) {
          line += ": " + text_of(first->if_contains("message"));
          if (auto details = text_of(first->if_contains("details")); !details.empty())
            line += ": " + details.substr(0, 300);
        }
    }
    return line;
  }
  if (o)
    if (auto* e = object_at(*o, "error"))
      return "the engine refused the prompt: " + text_of(e->if_contains("type")) + ": " +
             text_of(e->if_contains("message")).substr(0, 300);
  return "the engine answered POST /prompt with HTTP " + std::to_string(status);
}

std::string comfy_accepted_id(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  auto* o = ec ? nullptr : v.if_object();
  auto id = o ? text_of(o->if_contains("prompt_id")) : std::string{};
  // It goes into URL paths (/history/<id>): letters, digits and '-' only.
  bool plain = id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
  });
  return plain ? id : std::string{};
}

std::optional<comfy_event> comfy_parse_event(std::string_view text) {
  boost::system::error_code ec;
  auto v = json::parse(text, ec);
  auto* o = ec ? nullptr : v.if_object();
  auto* data = o ? object_at(*o, "data") : nullptr;
  if (!o || !data || !o->if_contains("type") || !o->at("type").is_string())
    return std::nullopt;
  comfy_event e;
  e.type = std::string{o->at("type").as_string()};
  e.prompt_id = text_of(data->if_contains("prompt_id"));
  if (auto* node = data->if_contains("node"))
    e.node_null = node->is_null();
  auto number = [&](std::string_view key) {
    auto* n = data->if_contains(key);
    return n && n->is_number() ? n->to_number<double>() : 0.0;
  };
  e.value = number("value");
  e.max = number("max");
  e.exception_type = text_of(data->if_contains("exception_type"));
  e.exception_message = text_of(data->if_contains("exception_message")).substr(0, 500);
  return e;
}

std::variant<std::optional<comfy_history>, provider_error> comfy_parse_history(std::string_view body,
                                                                              std::string_view prompt_id) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    return provider_error::failed("the engine's history answer is not JSON");
  auto* entry = object_at(v.as_object(), prompt_id);
  if (!entry)
    return std::optional<comfy_history>{};
  comfy_history h;
  if (auto* status = object_at(*entry, "status")) {
    h.success = text_of(status->if_contains("status_str")) == "success";
    if (auto* messages = status->if_contains("messages"); messages && messages->is_array())
      for (auto& m : messages->as_array()) {
        auto* pair = m.if_array();
        if (!pair || pair->size() != 2 || !(*pair)[0].is_string())
          continue;
        auto kind = (*pair)[0].as_string();
        h.interrupted = kind == "execution_interrupted";
        if (kind == "execution_error")
          if (auto* d = (*pair)[1].if_object())
            h.exception_type = text_of(d->if_contains("exception_type"));
      }
  }
  if (auto* outputs = object_at(*entry, "outputs"))
    for (auto& [node, out] : *outputs) {
      auto* lists = out.if_object();
      if (!lists)
        continue;
      for (auto key : {"images", "gifs", "video", "videos"})
        if (auto* files = lists->if_contains(key); files && files->is_array())
          for (auto& f : files->as_array())
            if (auto* fo = f.if_object()) {
              comfy_output_file file{text_of(fo->if_contains("filename")), text_of(fo->if_contains("subfolder")),
                                     text_of(fo->if_contains("type"))};
              if (file.filename.empty())
                return provider_error::failed("the engine's history names an output without a filename");
              if (file.type.empty())
                file.type = "output";
              h.files.push_back(std::move(file));
            }
    }
  return std::optional<comfy_history>{std::move(h)};
}

bool comfy_queue_holds(std::string_view body, std::string_view prompt_id) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    return false;
  for (auto key : {"queue_running", "queue_pending"})
    if (auto* list = v.as_object().if_contains(key); list && list->is_array())
      for (auto& item : list->as_array())
        if (auto* t = item.if_array(); t && t->size() > 1 && (*t)[1].is_string() && (*t)[1].as_string() == prompt_id)
          return true;
  return false;
}

std::string_view comfy_content_type(std::string_view filename) {
  auto dot = filename.rfind('.');
  auto ext = dot == std::string_view::npos ? std::string_view{} : filename.substr(dot + 1);
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "webp") return "image/webp";
  if (ext == "mp4") return "video/mp4";
  if (ext == "webm") return "video/webm";
  return {};
}

std::string comfy_view_query(const comfy_output_file& f) {
  return "filename=" + percent_encoded(f.filename) + "&subfolder=" + percent_encoded(f.subfolder) +
         "&type=" + percent_encoded(f.type);
}

std::string comfy_upload_body(std::string_view boundary, std::string_view name, std::string_view subfolder,
                              std::string_view bytes) {
  std::string b{boundary};
  std::string body;
  body += "--" + b + "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"" + std::string{name} +
          "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
  body += bytes;
  body += "\r\n--" + b + "\r\nContent-Disposition: form-data; name=\"subfolder\"\r\n\r\n" + std::string{subfolder};
  body += "\r\n--" + b + "\r\nContent-Disposition: form-data; name=\"overwrite\"\r\n\r\ntrue";
  body += "\r\n--" + b + "--\r\n";
  return body;
}

std::optional<std::string> comfy_uploaded_name(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    return std::nullopt;
  auto name = text_of(v.as_object().if_contains("name"));
  auto sub = text_of(v.as_object().if_contains("subfolder"));
  if (name.empty())
    return std::nullopt;
  return sub.empty() ? name : sub + "/" + name;
}

std::string comfy_check_workflow(const comfy_workflow& workflow, const json::object& object_info) {
  for (auto& [id, node] : workflow.graph) {
    auto cls = std::string{node.as_object().at("class_type").as_string()};
    auto where = workflow.path + ": node " + std::string{id} + " (" + cls + ")";
    auto* info = object_at(object_info, cls);
    if (!info)
      return where + ": the engine has no node class " + cls;
    auto& inputs = node.as_object().at("inputs").as_object();
    auto* spec = object_at(*info, "input");
    auto* required = spec ? object_at(*spec, "required") : nullptr;
    if (!required)
      continue;
    for (auto& [name, s] : *required) {
      auto* given = inputs.if_contains(name);
      if (!given)
        return where + ": input " + std::string{name} + " is not set (unbound)";
      if (given->is_array() || (cls == "LoadImage" && name == "image"))
        continue;
      if (auto* options = combo_options(s); options && !lists(*options, *given))
        return where + ": input " + std::string{name} + ": " + json::serialize(*given) +
               " is not installed on the engine";
    }
  }
  return {};
}

bool comfy_has_lora_file(const json::object& object_info, std::string_view file) {
  auto* info = object_at(object_info, "LoraLoader");
  auto* spec = info ? object_at(*info, "input") : nullptr;
  auto* required = spec ? object_at(*spec, "required") : nullptr;
  auto* names = required ? required->if_contains("lora_name") : nullptr;
  auto* options = names ? combo_options(*names) : nullptr;
  return options && lists(*options, json::string{file});
}

} // namespace svc::providers
