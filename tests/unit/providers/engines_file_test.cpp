// The engines file read without reaching any engine: the shipped examples
// are valid, and each mistake an operator can make is refused with a
// message naming the place and the field.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "media_probe.hpp"
#include "providers/engines_file.hpp"

using namespace svc::providers;

namespace {

const std::string example_dir = SVC_EXAMPLES_DIR "/engines";

std::string example(const std::string& name) {
  std::ifstream in(example_dir + "/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Reads `text` as an engines file in the examples' folder (its workflows are found there).
std::optional<engines_file> read_text(const std::string& text, std::string& error) {
  auto with_paths = std::regex_replace(text, std::regex{"file: comfyui/"}, "file: " + example_dir + "/comfyui/");
  svc::test::temp_file file(with_paths, ".yaml");
  return read_engines_file(file.path(), error);
}

// `name` with `from` replaced by `to` is refused with an error containing `expect`.
void refused(const std::string& name, const std::string& from, const std::string& to, const std::string& expect) {
  auto text = example(name);
  auto at = text.find(from);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
  std::string error;
  BOOST_TEST(!read_text(text, error), "accepted: " << to);
  BOOST_TEST(error.find(expect) != std::string::npos, "'" << error << "' should name " << expect);
}

} // namespace

BOOST_AUTO_TEST_SUITE(providers_engines_file)

BOOST_AUTO_TEST_CASE(the_shipped_examples_are_valid) {
  for (auto name : {"comfyui.yaml", "cog.yaml", "a1111.yaml"}) {
    std::string error;
    auto file = read_engines_file(example_dir + "/" + name, error);
    BOOST_TEST(file.has_value(), name << ": " << error);
  }
  std::string error;
  auto cog = read_engines_file(example_dir + "/cog.yaml", error);
  BOOST_REQUIRE(cog);
  auto& setup = cog->setups.at("sdxl-loras");
  BOOST_TEST(setup.cog_inputs.at("loras") == "lora_urls");
  BOOST_TEST(setup.cog_constants.at("scheduler") == "K_EULER");
  BOOST_TEST(cog->setups.at("text-to-video").frame_tolerance == 1);
}

BOOST_AUTO_TEST_CASE(each_mistake_is_refused_by_name) {
  refused("comfyui.yaml", "kind: comfyui", "kind: comfy", "'kind' must be comfyui, cog, a1111 or procedural");
  refused("comfyui.yaml", "engines: [gpu0, gpu1]", "engines: [gpu0, gpu9]", "no engine is named 'gpu9'");
  refused("comfyui.yaml", "bind: {prompt: 6.text,", "bind: {prompt: 66.text,", "66");
  refused("comfyui.yaml", "bind: {prompt: 6.text,", "bind: {colour: 6.text,", "colour");
  refused("comfyui.yaml", "size: {default: 1024x1024, max: 1536x1536}", "size: {default: 2048x2048, max: 1536x1536}",
          "larger than the max");
  refused("cog.yaml", "inputs: {prompt: prompt, negative_prompt", "inputs: {colour: prompt, negative_prompt", "colour");
  refused("cog.yaml", "constants: {scheduler: K_EULER}", "constants: {scheduler: [a, b]}", "single value");
  refused("cog.yaml", "engines: [cog-sdxl]", "engines: [cog-sdxl]\n    workflows: {}", "does not apply to cog");
  refused("a1111.yaml", "\"2026-01-15\": {image: 2, image_steps: 0, lora: 1}", "\"2026-01-15\": {image: 2, frames: 3}",
          "frames");
}

BOOST_AUTO_TEST_CASE(broken_yaml_is_refused) {
  std::string error;
  BOOST_TEST(!read_text("engines: [", error));
  BOOST_TEST(!error.empty());
  BOOST_TEST(!read_text("", error));
  BOOST_TEST(!read_engines_file("/nonexistent/engines.yaml", error));
}

BOOST_AUTO_TEST_SUITE_END()
