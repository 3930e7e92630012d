#include "providers/comfy_workflow_file.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <boost/json/parse.hpp>

#include "providers/yaml_fields.hpp"

namespace svc::providers {
namespace json = boost::json;
namespace {

// The Svc fields a workflow of `mode` must bind: without them the output
// would ignore the request (its size, its seed, its init image, its length).
std::vector<std::string> required_bindings(render_mode mode) {
  std::vector<std::string> r{"prompt", "seed", "width", "height"};
  if (mode == render_mode::image_to_image || mode == render_mode::image_to_video)
    r.push_back("init_image");
  if (mode == render_mode::video || mode == render_mode::image_to_video) {
    r.push_back("frames");
    r.push_back("fps");
  }
  return r;
}

json::object read_graph(const std::string& file, const std::string& where) {
  std::ifstream in{file, std::ios::binary};
  if (!in)
    fault(where, "cannot read the workflow file " + file);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto v = json::parse(text.str(), ec);
  if (ec || !v.is_object() || v.as_object().empty())
    fault(where, file + " is not an API-format workflow (a JSON object of nodes; export it with \"Save (API)\")");
  for (auto& [id, node] : v.as_object()) {
    auto* o = node.if_object();
    if (!o || !o->if_contains("class_type") || !o->at("class_type").is_string() || !o->if_contains("inputs") ||
        !o->at("inputs").is_object())
      fault(where, file + ": node " + std::string{id} + " lacks class_type or inputs (the UI's format, not the API's?)");
  }
  return std::move(v.as_object());
}

comfy_workflow read_workflow(const std::string& dir, const std::string& where, render_mode mode, const YAML::Node& n) {
  map_reader in{n, where + " workflow " + std::string{to_string(mode)}, {"file", "bind"}};
  comfy_workflow w;
  auto file = in.text("file");
  w.path = !file.empty() && file[0] == '/' ? file : dir + "/" + file;
  w.graph = read_graph(w.path, in.where());
  auto bind = in.get("bind");
  if (!bind || !bind.IsMap())
    fault(in.where(), "'bind' must map Svc fields to NODE.INPUT");
  for (auto it = bind.begin(); it != bind.end(); ++it) {
    auto field = it->first.as<std::string>();
    auto& fields = bindable_fields();
    if (std::find(fields.begin(), fields.end(), field) == fields.end())
      fault(in.where(), "bind: '" + field + "' is no Svc field");
    auto target = it->second.IsScalar() ? it->second.as<std::string>() : std::string{};
    auto dot = target.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == target.size())
      fault(in.where(), "bind: " + field + " must be NODE.INPUT, like 6.text");
    workflow_binding b{target.substr(0, dot), target.substr(dot + 1)};
    auto* node = w.graph.if_contains(b.node);
    if (!node)
      fault(in.where(), "bind: " + field + ": the workflow has no node " + b.node);
    auto& inputs = node->at("inputs").as_object();
    auto* input = inputs.if_contains(b.input);
    if (!input)
      fault(in.where(), "bind: " + field + ": node " + b.node + " has no input " + b.input);
    if (input->is_array())
      fault(in.where(), "bind: " + field + ": input " + b.node + "." + b.input + " is a link, not a value");
    w.bindings.emplace(field, std::move(b));
  }
  for (auto& field : required_bindings(mode))
    if (!w.bindings.count(field))
      fault(in.where(), "bind: '" + field + "' is not bound, so the output would not follow the request");
  return w;
}

} // namespace

void read_workflows(const std::string& dir, const YAML::Node& n, const std::string& where, schema::model_kind kind,
                    model_setup& setup) {
  if (!n || !n.IsMap())
    fault(where, "a ComfyUI model needs 'workflows'");
  auto modes = kind == schema::model_kind::image
                 ? std::vector<render_mode>{render_mode::text_to_image, render_mode::image_to_image}
                 : std::vector<render_mode>{render_mode::video, render_mode::image_to_video};
  for (auto it = n.begin(); it != n.end(); ++it) {
    auto name = it->first.as<std::string>();
    auto mode = std::find_if(modes.begin(), modes.end(), [&](render_mode m) { return to_string(m) == name; });
    if (mode == modes.end())
      fault(where, "workflows: '" + name + "' is no mode of a " + std::string{schema::to_string(kind)} +
                             " model (" + std::string{to_string(modes[0])} + ", " + std::string{to_string(modes[1])} + ")");
    setup.workflows.emplace(*mode, read_workflow(dir, where, *mode, it->second));
  }
  if (!setup.workflows.count(modes[0]))
    fault(where, "workflows: '" + std::string{to_string(modes[0])} + "' is required");
}


} // namespace svc::providers
