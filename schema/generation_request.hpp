#pragma once
// The validated bodies of `POST /v1/images` (also `/v1/images/estimate`) and
// `POST /v1/videos`: decisions.md's rules applied to untrusted JSON, as pure
// functions that never throw, so create and estimate reject the same bodies.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "schema/checked.hpp"
#include "schema/field_reader.hpp"

namespace svc::schema {

/// Longest prompt, in Unicode code points.
inline constexpr std::size_t max_prompt_chars = 4000;
/// `metadata` of generation and webhook endpoint bodies: at most 20 keys of 40 and values of 500 code points.
inline constexpr string_map_limits metadata_limits{20, 40, 500};
/// At most this many adapters in `loras`.
inline constexpr std::size_t max_loras = 5;

/// One requested adapter, as the client named it (id or slug).
struct lora_ref {
  std::string lora;    ///< `lora_...` id or slug, unresolved
  double weight = 1.0; ///< -2.0..2.0
};

/// Fields images and videos share.
struct generation_request {
  std::string prompt;          ///< 1..4000 code points
  std::string negative_prompt; ///< 0..4000 code points, "" when absent
  int width = 0;               ///< pixels
  int height = 0;              ///< pixels
  uint32_t seed = 0;           ///< meaningful only when `seed_given`
  bool seed_given = false;     ///< false: the caller draws a seed and echoes it
  std::optional<std::string> lora_id; ///< set when the body had `lora_id`
  std::vector<lora_ref> loras; ///< non-empty when the body had `loras`
  std::optional<std::string> init_image;       ///< a `file_` id; existence is the caller's check
  std::map<std::string, std::string> metadata; ///< echoed back unchanged
  std::optional<std::string> model;            ///< the body's `model`, unresolved; absent: the kind's default
  bool width_given = false;                    ///< false: `width` is the kind's default, the model may set another
  bool height_given = false;                   ///< the same for `height`
};

/// A valid `POST /v1/images` body.
struct image_request : generation_request {
  int num_outputs = 1; ///< 1..4
  int steps = 30;      ///< 1..100
};

/// A valid `POST /v1/videos` body.
struct video_request : generation_request {
  int duration_seconds = 4; ///< 1..10
  int fps = 24;             ///< 8..30
  bool duration_given = false; ///< false: the model's default length applies
  bool fps_given = false;      ///< false: the model's default fps applies
};

/// Checks an image body. Failures: `unknown_parameter` naming the first
/// unknown top-level field, else `invalid_parameter` naming the first bad
/// field (nested: `loras[1].weight`, `metadata.<key>`).
checked<image_request> validate_image_request(const boost::json::object& body);

/// Checks a video body; same failures. `num_outputs` and `steps` are unknown here.
checked<video_request> validate_video_request(const boost::json::object& body);

} // namespace svc::schema
