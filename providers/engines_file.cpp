#include "providers/engines_file.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "providers/comfy_workflow_file.hpp"
#include "providers/remote/remote_url.hpp"
#include "providers/yaml_fields.hpp"
#include "schema/api_versions.hpp"

namespace svc::providers {
namespace json = boost::json;
namespace {

bool is_header_name(std::string_view s) {
  return !s.empty() && s.size() <= 100 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

engine_kind kind_of(const map_reader& in) {
  if (auto kind = engine_kind_named(in.text("kind")))
    return *kind;
  fault(in.where(), "'kind' must be comfyui, cog, a1111 or procedural");
}

engine_spec read_engine(const std::string& path, const YAML::Node& n) {
  map_reader in{n, where_of(path, n) + " engine", {"name", "kind", "url", "slots", "headers"}};
  engine_spec e;
  e.name = in.text("name");
  e.kind = kind_of(in);
  e.slots = static_cast<int>(in.integer("slots", 1, 64, 1));
  if (e.kind != engine_kind::procedural || in.has("url"))
    e.url = in.text("url");
  if (auto headers = in.get("headers")) {
    if (!headers.IsMap())
      fault(in.where(), "'headers' must map header names to values");
    for (auto it = headers.begin(); it != headers.end(); ++it) {
      if (!it->second.IsScalar())
        fault(in.where(), "header '" + it->first.as<std::string>() + "' needs a text value");
      e.headers.emplace_back(it->first.as<std::string>(), it->second.as<std::string>());
    }
  }
  if (auto problem = engine_spec_problem(e); !problem.empty())
    fault(in.where(), problem);
  return e;
}

schema::frame_size read_size(const map_reader& in, const std::string& key, int multiple, schema::frame_size fallback) {
  auto text = in.text(key, false);
  if (text.empty())
    return fallback;
  schema::frame_size s;
  char x = 0;
  std::istringstream is{text};
  if (!(is >> s.width >> x >> s.height) || x != 'x' || !is.eof() || s.width < 256 || s.height < 256 ||
      s.width > 2048 || s.height > 2048 || s.width % multiple || s.height % multiple)
    fault(in.where(), "'" + key + "' must be WIDTHxHEIGHT, sides multiples of " + std::to_string(multiple) +
                        " from 256 to 2048");
  return s;
}

std::vector<schema::model_price> read_prices(const map_reader& model, schema::model_kind kind) {
  std::vector<schema::model_price> out;
  auto n = model.get("prices");
  if (!n)
    return out;
  if (!n.IsMap())
    fault(model.where(), "'prices' must map API versions to price items");
  std::vector<std::string_view> items = kind == schema::model_kind::image
                                          ? std::vector<std::string_view>{"image", "image_steps", "lora"}
                                          : std::vector<std::string_view>{"video", "lora"};
  for (auto it = n.begin(); it != n.end(); ++it) {
    schema::model_price p;
    p.api_version = it->first.as<std::string>();
    if (!schema::is_api_version(p.api_version))
      fault(model.where(), "prices: '" + p.api_version + "' is not an API version (" + schema::api_versions_text() + ")");
    if (!it->second.IsMap())
      fault(model.where(), "prices: " + p.api_version + " must map items to credits");
    for (auto item = it->second.begin(); item != it->second.end(); ++item) {
      auto name = item->first.as<std::string>();
      long credits = -1;
      if (std::find(items.begin(), items.end(), name) == items.end())
        fault(model.where(), "prices: " + std::string{schema::to_string(kind)} + " models price no item '" + name + "'");
      if (!item->second.IsScalar() || !YAML::convert<long>::decode(item->second, credits) || credits < 0 ||
          credits > 1'000'000)
        fault(model.where(), "prices: " + name + " must be whole credits from 0 to 1000000");
      p.items[name] = credits;
    }
    for (auto name : items)
      if (!p.items.count(std::string{name}))
        fault(model.where(), "prices: " + p.api_version + " lacks the item '" + std::string{name} + "'");
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.api_version < b.api_version; });
  return out;
}

json::value scalar_json(const YAML::Node& n) {
  long i = 0;
  double d = 0;
  bool b = false;
  if (n.Tag() != "!" && YAML::convert<long>::decode(n, i))
    return i;
  if (n.Tag() != "!" && YAML::convert<double>::decode(n, d))
    return d;
  if (n.Tag() != "!" && YAML::convert<bool>::decode(n, b))
    return b;
  return json::string{n.as<std::string>()};
}

void read_cog_inputs(const map_reader& model, model_setup& setup) {
  auto n = model.get("inputs");
  if (!n || !n.IsMap())
    fault(model.where(), "a Cog model needs 'inputs', mapping Svc fields to the model's input names");
  for (auto it = n.begin(); it != n.end(); ++it) {
    auto field = it->first.as<std::string>();
    auto& fields = bindable_fields();
    bool lora_list = field == "loras" || field == "lora_weights"; // only a Cog input takes a list
    if (!lora_list && std::find(fields.begin(), fields.end(), field) == fields.end())
      fault(model.where(), "inputs: '" + field + "' is no Svc field");
    if (!it->second.IsScalar() || it->second.as<std::string>().empty())
      fault(model.where(), "inputs: " + field + " must name one input of the model");
    setup.cog_inputs[field] = it->second.as<std::string>();
  }
  if (!setup.cog_inputs.count("prompt"))
    fault(model.where(), "inputs: 'prompt' is required");
  if (auto c = model.get("constants")) {
    if (!c.IsMap())
      fault(model.where(), "'constants' must map input names to values");
    for (auto it = c.begin(); it != c.end(); ++it) {
      if (!it->second.IsScalar())
        fault(model.where(), "constants: " + it->first.as<std::string>() + " must be a single value");
      setup.cog_constants[it->first.as<std::string>()] = scalar_json(it->second);
    }
  }
}

const engine_spec& engine_named(const std::vector<engine_spec>& engines, const std::string& name,
                                const std::string& where) {
  for (auto& e : engines)
    if (e.name == name)
      return e;
  fault(where, "no engine is named '" + name + "'");
}

void read_model(const std::string& path, const std::string& dir, const YAML::Node& n, engines_file& file) {
  schema::model_entry m;
  auto where = where_of(path, n) + " model";
  m.id = n.IsMap() && n["id"] && n["id"].IsScalar() ? n["id"].as<std::string>() : std::string{};
  if (!is_name(m.id, 64))
    fault(where, "'id' must be 1-64 of a-z, 0-9, '-', '_' and '.'");
  map_reader named{n, where + " " + m.id,
                   {"id", "kind", "default", "description", "engines", "size", "max_steps", "duration", "fps",
                    "tolerance", "denoise", "prices", "workflows", "inputs", "constants"}};
  for (auto& other : file.models)
    if (other.id == m.id)
      fault(named.where(), "a second model has this id");
  auto kind = named.text("kind");
  if (kind != "image" && kind != "video")
    fault(named.where(), "'kind' must be image or video");
  m.kind = kind == "image" ? schema::model_kind::image : schema::model_kind::video;
  bool video = m.kind == schema::model_kind::video;
  m.is_default = named.flag("default");
  m.description = named.text("description", false);
  m.engines = named.texts("engines");
  std::set<engine_kind> kinds;
  for (auto& name : m.engines)
    kinds.insert(engine_named(file.engines, name, named.where()).kind);
  if (kinds.size() > 1)
    fault(named.where(), "its engines are of different kinds; one model is driven one way");
  auto engine = *kinds.begin();
  model_setup setup;
  schema::frame_size fallback = video ? schema::frame_size{768, 432} : schema::frame_size{1024, 1024};
  int multiple = video ? 16 : 64;
  if (auto size = named.get("size")) {
    map_reader s{size, named.where() + " size", {"default", "max"}};
    m.max_size = read_size(s, "max", multiple, {2048, 2048});
    m.default_size = read_size(s, "default", multiple, fallback);
  } else {
    m.max_size = {2048, 2048};
    m.default_size = fallback;
  }
  if (m.default_size.width > m.max_size.width || m.default_size.height > m.max_size.height)
    fault(named.where(), "size: the default is larger than the max");
  m.max_steps = static_cast<int>(named.integer("max_steps", 1, 100, 100));
  if (video) {
    if (auto d = named.get("duration")) {
      map_reader dr{d, named.where() + " duration", {"default", "max"}};
      m.max_duration = static_cast<int>(dr.integer("max", 1, 10, 10));
      m.default_duration = static_cast<int>(dr.integer("default", 1, m.max_duration, std::min(4, m.max_duration)));
    }
    if (auto f = named.get("fps")) {
      map_reader fr{f, named.where() + " fps", {"default", "min", "max"}};
      m.min_fps = static_cast<int>(fr.integer("min", 8, 30, 8));
      m.max_fps = static_cast<int>(fr.integer("max", m.min_fps, 30, 30));
      m.default_fps = static_cast<int>(fr.integer("default", m.min_fps, m.max_fps, std::clamp(24, m.min_fps, m.max_fps)));
    }
    if (auto t = named.get("tolerance")) {
      map_reader tr{t, named.where() + " tolerance", {"frames", "seconds"}};
      setup.frame_tolerance = static_cast<int>(tr.integer("frames", 0, 1000, 0));
      setup.duration_tolerance = tr.number("seconds", 0, 10, 0.1);
    }
  }
  setup.denoise = named.number("denoise", 0.0, 1.0, 0.75);
  m.prices = read_prices(named, m.kind);
  bool comfy = engine == engine_kind::comfyui, cog = engine == engine_kind::cog;
  for (auto [key, wanted] : {std::pair{"workflows", comfy}, std::pair{"inputs", cog}, std::pair{"constants", cog}})
    if (named.has(key) && !wanted)
      fault(named.where(), std::string{"'"} + key + "' does not apply to " + std::string{to_string(engine)} + " engines");
  if (comfy)
    read_workflows(dir, named.get("workflows"), named.where(), m.kind, setup);
  if (cog)
    read_cog_inputs(named, setup);
  if (engine == engine_kind::a1111 || engine == engine_kind::procedural)
    file.slug_models.push_back(m.id);
  file.setups.emplace(m.id, std::move(setup));
  file.models.push_back(std::move(m));
}

void read_lora(const std::string& path, const YAML::Node& n, engines_file& file) {
  map_reader in{n, where_of(path, n) + " lora", {"slug", "file", "models"}};
  schema::model_lora l;
  l.slug = in.text("slug");
  l.file = in.text("file");
  l.models = in.texts("models");
  if (l.file.find_first_of("\r\n\"") != std::string::npos || l.file.size() > 255)
    fault(in.where(), "'file' must be a file name on the engine");
  for (auto& other : file.loras)
    if (other.slug == l.slug)
      fault(in.where(), "a second entry places '" + l.slug + "'");
  for (auto& id : l.models)
    if (std::none_of(file.models.begin(), file.models.end(), [&](auto& m) { return m.id == id; }))
      fault(in.where(), "no model has the id '" + id + "'");
  file.loras.push_back(std::move(l));
}

template <class Read>
void read_list(const YAML::Node& root, const std::string& key, const std::string& path, bool required, Read read) {
  auto n = root[key];
  if (!n && !required)
    return;
  if (!n || !n.IsSequence() || n.size() == 0)
    fault(path, "'" + key + "' must be a list of at least one entry");
  for (auto item : n)
    read(item);
}

} // namespace

std::optional<engines_file> read_engines_file(const std::string& path, std::string& error) {
  try {
    auto root = YAML::LoadFile(path);
    map_reader top{root, path, {"engines", "models", "loras"}};
    engines_file file;
    read_list(root, "engines", path, true, [&](const YAML::Node& n) {
      auto e = read_engine(path, n);
      for (auto& other : file.engines)
        if (other.name == e.name)
          fault(where_of(path, n), "a second engine is named '" + e.name + "'");
      file.engines.push_back(std::move(e));
    });
    auto slash = path.rfind('/');
    auto dir = slash == std::string::npos ? std::string{"."} : path.substr(0, slash);
    read_list(root, "models", path, true, [&](const YAML::Node& n) { read_model(path, dir, n, file); });
    read_list(root, "loras", path, false, [&](const YAML::Node& n) { read_lora(path, n, file); });
    for (auto& e : file.engines)
      if (std::none_of(file.models.begin(), file.models.end(), [&](auto& m) {
            return std::find(m.engines.begin(), m.engines.end(), e.name) != m.engines.end();
          }))
        fault(path, "engine '" + e.name + "' serves no model");
    return file;
  } catch (const file_fault& f) {
    error = f.what;
  } catch (const YAML::Exception& e) {
    error = path + ": " + e.what();
  }
  return std::nullopt;
}

std::optional<engine_kind> engine_kind_named(std::string_view text) {
  for (auto kind : {engine_kind::comfyui, engine_kind::cog, engine_kind::a1111, engine_kind::procedural})
    if (text == to_string(kind))
      return kind;
  return std::nullopt;
}

std::string engine_spec_problem(const engine_spec& e) {
  if (!is_name(e.name, 40))
    return "'name' must be 1-40 of a-z, 0-9, '-', '_' and '.'";
  if (e.slots < 1 || e.slots > 64)
    return "'slots' must be 1-64";
  if (e.kind == engine_kind::procedural) {
    if (!e.url.empty())
      return "the built-in renderer has no 'url'";
  } else if (std::string why; !parse_remote_url(e.url, why)) {
    return "'url': " + why;
  }
  for (auto& [name, value] : e.headers) {
    if (!is_header_name(name))
      return "header '" + name + "' needs a token name";
    if (value.find_first_of("\r\n") != std::string::npos || value.size() > 4096)
      return "header '" + name + "' has a line break or is over 4096 bytes"; // its value is secret: not quoted
  }
  return {};
}

std::string_view to_string(engine_kind k) {
  switch (k) {
  case engine_kind::comfyui: return "comfyui";
  case engine_kind::cog: return "cog";
  case engine_kind::a1111: return "a1111";
  case engine_kind::procedural: return "procedural";
  }
  return "?";
}

std::string_view to_string(render_mode m) {
  switch (m) {
  case render_mode::text_to_image: return "text_to_image";
  case render_mode::image_to_image: return "image_to_image";
  case render_mode::video: return "video";
  case render_mode::image_to_video: return "image_to_video";
  }
  return "?";
}

const std::vector<std::string>& bindable_fields() {
  static const std::vector<std::string> all{"prompt", "negative_prompt", "seed", "width", "height", "steps",
                                            "num_outputs", "init_image", "denoise", "frames", "fps"};
  return all;
}

} // namespace svc::providers
