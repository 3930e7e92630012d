#include "comfyui_graph.hpp"

#include <algorithm>

#include <boost/json.hpp>

namespace svc::test {
namespace json = boost::json;
namespace {

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (auto& s : v)
    a.push_back(json::string{s});
  return a;
}

json::object node_class(json::object required, bool output, json::array outputs) {
  return {{"input", {{"required", std::move(required)}, {"optional", json::object{}}}},
          {"output", std::move(outputs)},
          {"output_node", output},
          {"category", "svc-stand-in"}};
}

json::value int_spec(int def) { return json::array{"INT", {{"default", def}}}; }

// A 400 of `type`, with one failing node when `node` is given.
json::object refusal(std::string type, std::string message, const std::string& node = {},
                     const std::string& cls = {}, std::string error_type = {}, std::string details = {}) {
  json::object node_errors;
  if (!node.empty())
    node_errors[node] = {{"errors", json::array{{{"type", error_type}, {"message", message}, {"details", details},
                                                 {"extra_info", json::object{}}}}},
                         {"dependent_outputs", json::array{}},
                         {"class_type", cls}};
  return {{"error", {{"type", type}, {"message", message}, {"details", ""}, {"extra_info", json::object{}}}},
          {"node_errors", std::move(node_errors)}};
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const json::value* literal(const json::object& inputs, std::string_view key) {
  auto* v = inputs.if_contains(key);
  return v && !v->is_array() ? v : nullptr;
}

} // namespace

json::object comfyui_object_info(const comfyui_installed& in) {
  json::object o;
  // The legacy combo shape [[options], {}] here, the V3 one for LoRAs.
  o["CheckpointLoaderSimple"] = node_class({{"ckpt_name", json::array{strings(in.checkpoints), json::object{}}}}, false,
                                           {"MODEL", "CLIP", "VAE"});
  o["LoraLoader"] = node_class({{"model", json::array{"MODEL"}},
                                {"clip", json::array{"CLIP"}},
                                {"lora_name", json::array{"COMBO", {{"options", strings(in.loras)}}}},
                                {"strength_model", json::array{"FLOAT"}},
                                {"strength_clip", json::array{"FLOAT"}}},
                               false, {"MODEL", "CLIP"});
  o["CLIPTextEncode"] = node_class({{"text", json::array{"STRING"}}, {"clip", json::array{"CLIP"}}}, false, {"CONDITIONING"});
  o["KSampler"] = node_class({{"model", json::array{"MODEL"}}, {"seed", int_spec(0)}, {"steps", int_spec(20)},
                              {"cfg", json::array{"FLOAT"}},
                              {"sampler_name", json::array{json::array{"euler", "dpmpp_2m"}, json::object{}}},
                              {"scheduler", json::array{json::array{"normal", "karras"}, json::object{}}},
                              {"positive", json::array{"CONDITIONING"}}, {"negative", json::array{"CONDITIONING"}},
                              {"latent_image", json::array{"LATENT"}}, {"denoise", json::array{"FLOAT"}}},
                             false, {"LATENT"});
  o["EmptyLatentImage"] = node_class({{"width", int_spec(512)}, {"height", int_spec(512)}, {"batch_size", int_spec(1)}},
                                     false, {"LATENT"});
  o["EmptyHunyuanLatentVideo"] = node_class(
    {{"width", int_spec(848)}, {"height", int_spec(480)}, {"length", int_spec(25)}, {"batch_size", int_spec(1)}}, false,
    {"LATENT"});
  o["VAEDecode"] = node_class({{"samples", json::array{"LATENT"}}, {"vae", json::array{"VAE"}}}, false, {"IMAGE"});
  o["VAEEncode"] = node_class({{"pixels", json::array{"IMAGE"}}, {"vae", json::array{"VAE"}}}, false, {"LATENT"});
  o["ImageScale"] = node_class({{"image", json::array{"IMAGE"}}, {"upscale_method", json::array{"STRING"}},
                                {"width", int_spec(512)}, {"height", int_spec(512)}, {"crop", json::array{"STRING"}}},
                               false, {"IMAGE"});
  o["LoadImage"] = node_class({{"image", json::array{json::array{}, json::object{{"image_upload", true}}}}}, false,
                              {"IMAGE", "MASK"});
  o["SaveImage"] = node_class({{"images", json::array{"IMAGE"}}, {"filename_prefix", json::array{"STRING"}}}, true, {});
  o["CreateVideo"] = node_class({{"images", json::array{"IMAGE"}}, {"fps", json::array{"FLOAT"}}}, false, {"VIDEO"});
  o["SaveVideo"] = node_class({{"video", json::array{"VIDEO"}}, {"filename_prefix", json::array{"STRING"}},
                               {"format", json::array{json::array{"auto", "mp4"}, json::object{}}},
                               {"codec", json::array{json::array{"auto", "h264"}, json::object{}}}},
                              true, {});
  return o;
}

std::optional<json::object> comfyui_refusal(const json::object& prompt, const comfyui_installed& in,
                                            const std::vector<std::string>& uploaded) {
  auto info = comfyui_object_info(in);
  bool any_output = false;
  for (auto& [id, node] : prompt) {
    auto* n = node.if_object();
    auto* cls = n ? n->if_contains("class_type") : nullptr;
    if (!cls || !cls->is_string())
      return refusal("invalid_prompt", "Cannot execute because a node is missing the class_type property.",
                     std::string{id});
    std::string c{cls->as_string()};
    auto* spec = info.if_contains(c);
    if (!spec)
      return json::object{{"error", {{"type", "invalid_prompt"},
                                     {"message", "Cannot execute because node " + c + " does not exist."},
                                     {"details", "Node ID '#" + std::string{id} + "'"},
                                     {"extra_info", json::object{}}}},
                          {"node_errors", json::object{}}};
    any_output = any_output || spec->at("output_node").as_bool();
    auto* inputs = n->if_contains("inputs") ? n->at("inputs").if_object() : nullptr;
    if (!inputs)
      return refusal("prompt_outputs_failed_validation", "Prompt outputs failed validation", std::string{id}, c,
                     "required_input_missing", "inputs");
    for (auto& [name, s] : spec->at("input").at("required").as_object()) {
      auto* given = inputs->if_contains(name);
      if (!given)
        return refusal("prompt_outputs_failed_validation", "Required input is missing", std::string{id}, c,
                       "required_input_missing", std::string{name});
      if (given->is_array()) {
        auto& link = given->as_array();
        if (link.size() != 2 || !link[0].is_string() || !prompt.if_contains(link[0].as_string()))
          return refusal("prompt_outputs_failed_validation", "Bad linked input, must be a length-2 list of [string, int]",
                         std::string{id}, c, "bad_linked_input", std::string{name});
        continue;
      }
      if (c == "LoadImage" && name == "image") {
        if (!given->is_string() || !has(uploaded, std::string{given->as_string()}))
          return refusal("prompt_outputs_failed_validation", "Custom validation failed for node", std::string{id}, c,
                         "custom_validation_failed",
                         "image - Invalid image file: " + (given->is_string() ? std::string{given->as_string()} : ""));
        continue;
      }
      const json::array* options = nullptr;
      if (auto* a = s.if_array(); a && !a->empty()) {
        if ((*a)[0].is_array())
          options = &(*a)[0].as_array();
        else if ((*a)[0] == "COMBO")
          options = &(*a)[1].as_object().at("options").as_array();
      }
      if (options && !options->empty() && std::find(options->begin(), options->end(), *given) == options->end())
        return refusal("prompt_outputs_failed_validation", "Value not in list", std::string{id}, c,
                       "value_not_in_list",
                       std::string{name} + ": '" + (given->is_string() ? std::string{given->as_string()} : "?") +
                         "' not in " + json::serialize(*options));
    }
  }
  if (!any_output)
    return refusal("prompt_no_outputs", "Prompt has no outputs");
  return std::nullopt;
}

comfyui_work comfyui_work_of(const json::object& prompt) {
  comfyui_work w;
  auto as_int = [](const json::value* v, int fallback) { return v && v->is_number() ? v->to_number<int>() : fallback; };
  // Nodes keep their order, and the back end adds its LoRAs in chain order.
  for (auto& [id, node] : prompt) {
    auto& n = node.as_object();
    auto cls = n.at("class_type").as_string();
    auto& in = n.at("inputs").as_object();
    if (cls == "EmptyLatentImage" || cls == "EmptyHunyuanLatentVideo" || cls == "ImageScale") {
      w.width = as_int(literal(in, "width"), w.width);
      w.height = as_int(literal(in, "height"), w.height);
      w.batch = as_int(literal(in, "batch_size"), w.batch);
      if (cls == "EmptyHunyuanLatentVideo")
        w.frames = as_int(literal(in, "length"), 25);
    } else if (cls == "KSampler") {
      if (auto* s = literal(in, "seed"); s && s->is_number())
        w.seed = s->to_number<std::uint64_t>();
      w.steps = as_int(literal(in, "steps"), 20);
    } else if (cls == "CreateVideo") {
      w.fps = as_int(literal(in, "fps"), 24);
    } else if (cls == "LoadImage") {
      w.init_image = std::string{in.at("image").as_string()};
    } else if (cls == "SaveImage") {
      w.image_savers.push_back(std::string{id});
    } else if (cls == "SaveVideo") {
      w.video_saver = std::string{id};
    } else if (cls == "LoraLoader") {
      w.loras.push_back(std::string{in.at("lora_name").as_string()});
    }
  }
  if (w.video_saver.empty())
    w.frames = 0;
  return w;
}

} // namespace svc::test
