#pragma once
// What the ComfyUI stand-in knows of node classes: its `/object_info` (a few
// core nodes, combos in both the legacy and the V3 shape), the validation of
// `POST /prompt` with ComfyUI's error shapes (engines.md 1.3), and what a
// valid prompt asks to be made (sizes, seed, steps, frames, outputs).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

namespace svc::test {

/// The installed model files the stand-in reports.
struct comfyui_installed {
  std::vector<std::string> checkpoints{"sdxl_base.safetensors", "wan_2.2.safetensors"};
  std::vector<std::string> loras{"watercolor_sdxl.safetensors", "neon_sdxl.safetensors"};
};

/// `/object_info` for what is installed.
boost::json::object comfyui_object_info(const comfyui_installed& installed);

/// Why ComfyUI would answer 400 to `prompt`, as its body; nullopt when valid.
/// `uploaded` are the input files `LoadImage` may name.
std::optional<boost::json::object> comfyui_refusal(const boost::json::object& prompt,
                                                   const comfyui_installed& installed,
                                                   const std::vector<std::string>& uploaded);

/// What a valid prompt makes.
struct comfyui_work {
  int width = 512, height = 512, batch = 1;
  std::uint64_t seed = 0;
  int steps = 1;
  int frames = 0; ///< > 0: a video (SaveVideo) of this many frames
  int fps = 0;
  std::string init_image; ///< LoadImage's file, or empty
  std::vector<std::string> image_savers; ///< ids of SaveImage nodes
  std::string video_saver;               ///< id of the SaveVideo node, or empty
  std::vector<std::string> loras;        ///< `lora_name`s of the LoraLoader nodes, in chain order
};

/// Reads the work out of a valid prompt.
comfyui_work comfyui_work_of(const boost::json::object& prompt);

} // namespace svc::test
