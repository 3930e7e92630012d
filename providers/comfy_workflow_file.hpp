#pragma once
// Reading one ComfyUI workflow of the engines file: its API-format JSON and
// where each Svc field goes in it, checked against the graph itself (the
// node, the input, a value and not a link) before any engine is asked.

#include <string>

#include <yaml-cpp/yaml.h>

#include "providers/engines_file.hpp"

namespace svc::providers {

/// The workflows of a ComfyUI model from its `workflows` map (files relative
/// to `dir`); faults (yaml_fields.hpp) naming the workflow, node and input.
void read_workflows(const std::string& dir, const YAML::Node& workflows, const std::string& where,
                    schema::model_kind kind, model_setup& setup);

} // namespace svc::providers
