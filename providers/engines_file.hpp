#pragma once
// The operator's `--engines FILE` (YAML): the engines svcd renders with, the
// models they serve with each model's workflows or input map, and where the
// catalogue's LoRAs live on them. Read and checked once at start without
// reaching any engine; what only an engine can tell (its node classes, its
// model files, its input schema) is checked when its back end starts.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>

#include "schema/model_catalogue.hpp"

namespace svc::providers {

/// What an engine is.
enum class engine_kind { comfyui, cog, a1111, procedural };

/// The file's name of a kind (`comfyui`).
std::string_view to_string(engine_kind k);

/// One engine: a server process, or the built-in renderer.
struct engine_spec {
  std::string name;   ///< unique in the file; logs and metrics use it
  engine_kind kind = engine_kind::comfyui;
  std::string url;    ///< `http://host:port[/prefix]`; empty for `procedural`
  int slots = 1;      ///< renders it runs at once (1 per ComfyUI or A1111 process)
  std::vector<std::pair<std::string, std::string>> headers; ///< sent on every call (a proxy's auth); secret
};

/// What is wrong with `e` (its name, slots, URL or headers); empty when nothing.
std::string engine_spec_problem(const engine_spec& e);

/// The kind named `text` (`comfyui`), or nothing.
std::optional<engine_kind> engine_kind_named(std::string_view text);

/// What a ComfyUI workflow is run for.
enum class render_mode { text_to_image, image_to_image, video, image_to_video };

/// The file's name of a mode (`text_to_image`).
std::string_view to_string(render_mode m);

/// Where a Svc field goes in a workflow: one literal input of one node.
struct workflow_binding {
  std::string node;  ///< the node id (`"6"`)
  std::string input; ///< the input name (`text`)
};

/// An API-format workflow and its bindings.
struct comfy_workflow {
  std::string path;           ///< the file it was read from, for errors
  boost::json::object graph;  ///< node id -> {class_type, inputs}
  /// Svc field (`prompt`, `negative_prompt`, `seed`, `width`, `height`,
  /// `steps`, `num_outputs`, `init_image`, `denoise`, `frames`, `fps`) -> input.
  std::map<std::string, workflow_binding> bindings;
};

/// How the engines of one model are driven.
struct model_setup {
  std::map<render_mode, comfy_workflow> workflows; ///< ComfyUI models
  std::map<std::string, std::string> cog_inputs;   ///< Cog models: Svc field -> the model's input name
  boost::json::object cog_constants;               ///< Cog models: inputs sent as they are (`output_format: png`)
  int frame_tolerance = 0;                         ///< videos: frames an engine's output may differ by
  double duration_tolerance = 0.1;                 ///< videos: seconds it may differ by
  double denoise = 0.75;                           ///< strength of an init image's change
};

/// The whole file.
struct engines_file {
  std::vector<engine_spec> engines;
  std::vector<schema::model_entry> models;
  std::vector<schema::model_lora> loras;
  std::map<std::string, model_setup> setups; ///< by model id
  std::vector<std::string> slug_models;      ///< models all of whose engines take LoRA slugs
};

/// The fields a binding may name.
const std::vector<std::string>& bindable_fields();

/// Reads and checks `path` (workflow files are relative to its folder).
/// Nothing with `error` naming the line, field, workflow, node or input at fault.
std::optional<engines_file> read_engines_file(const std::string& path, std::string& error);

} // namespace svc::providers
