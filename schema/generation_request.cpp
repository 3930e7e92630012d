#include "schema/generation_request.hpp"

#include <array>

#include <boost/json.hpp>

#include "core/ids.hpp"
#include "schema/field_reader.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

// Ids are 31 characters and slugs are short; the bound keeps a hostile value
// out of error messages and lookups.
constexpr std::size_t max_lora_name_chars = 100;
// Model ids are short names from the operator's file.
constexpr std::size_t max_model_id_chars = 100;

// Images use the model's 64-pixel latent grid. Videos use H.264's 16-pixel
// macroblock instead, because the contract's default 768x432 is no multiple of 64.
struct size_rule {
  int multiple;
  int default_width;
  int default_height;
};
constexpr size_rule image_size{64, 1024, 1024};
constexpr size_rule video_size{16, 768, 432};
constexpr int min_side = 256;
constexpr int max_side = 2048;

std::optional<int> read_side(field_reader& in, std::string_view name, const size_rule& rule) {
  auto* v = in.get(name);
  if (!v)
    return std::nullopt;
  auto n = integral_value(*v);
  if (!n || *n < min_side || *n > max_side || *n % rule.multiple != 0) {
    in.fail(name, "must be a multiple of " + std::to_string(rule.multiple) + " between " + std::to_string(min_side)
                    + " and " + std::to_string(max_side));
    return std::nullopt;
  }
  return static_cast<int>(*n);
}

void read_text_and_size(field_reader& in, generation_request& r, const size_rule& rule) {
  if (auto p = in.text("prompt", 1, max_prompt_chars, true))
    r.prompt = std::move(*p);
  if (auto n = in.text("negative_prompt", 0, max_prompt_chars))
    r.negative_prompt = std::move(*n);
  auto width = read_side(in, "width", rule);
  auto height = read_side(in, "height", rule);
  r.width = width.value_or(rule.default_width);
  r.height = height.value_or(rule.default_height);
  r.width_given = width.has_value();
  r.height_given = height.has_value();
}

void read_loras(field_reader& in, generation_request& r) {
  auto* single = in.get("lora_id");
  auto* stack = in.get("loras");
  if (single && stack) {
    in.fail("loras", "cannot be combined with lora_id; send one of them");
    return;
  }
  if (single) {
    r.lora_id = in.text("lora_id", 1, max_lora_name_chars);
    return;
  }
  if (!stack)
    return;
  auto* items = stack->if_array();
  if (!items || items->empty() || items->size() > max_loras) {
    in.fail("loras", "must be an array of 1 to " + std::to_string(max_loras) + " {lora, weight} objects");
    return;
  }
  for (std::size_t i = 0; i < items->size() && in.ok(); ++i) {
    auto path = "loras[" + std::to_string(i) + "]";
    auto* o = (*items)[i].if_object();
    if (!o) {
      in.fail(path, "must be an object {lora, weight}");
      return;
    }
    field_reader item{*o, path};
    item.only({"lora", "weight"});
    auto name = item.text("lora", 1, max_lora_name_chars, true);
    auto weight = item.number("weight", -2.0, 2.0);
    in.merge(item);
    if (item.ok())
      r.loras.push_back({std::move(*name), weight.value_or(1.0)});
  }
}

void read_init_image(field_reader& in, generation_request& r) {
  auto* v = in.get("init_image");
  if (!v)
    return;
  auto* s = v->if_string();
  if (!s || !core::has_id_shape(*s, "file")) {
    in.fail("init_image", "must be a file id (file_...) from POST /v1/files");
    return;
  }
  r.init_image = std::string{s->data(), s->size()};
}

void read_common_rest(field_reader& in, generation_request& r) {
  if (auto seed = in.integer("seed", 0, UINT32_MAX)) {
    r.seed = static_cast<uint32_t>(*seed);
    r.seed_given = true;
  }
  read_loras(in, r);
  read_init_image(in, r);
  if (auto metadata = in.string_map("metadata", metadata_limits))
    r.metadata = std::move(*metadata);
  r.model = in.text("model", 1, max_model_id_chars);
}

// A request of one kind: the fields every kind has, and the kind's own two
// (`own`, read by `read_own`), in the order their errors are reported.
template <class Request, class ReadOwn>
checked<Request> read_request(const json::object& body, std::array<std::string_view, 2> own, const size_rule& size,
                              ReadOwn read_own) {
  field_reader in{body};
  in.only({"prompt", "negative_prompt", "width", "height", own[0], own[1], "seed", "lora_id", "loras", "init_image",
           "metadata", "model"});
  Request r;
  read_text_and_size(in, r, size);
  read_own(in, r);
  read_common_rest(in, r);
  if (in.error())
    return *in.error();
  return checked<Request>{std::move(r)};
}

} // namespace

checked<image_request> validate_image_request(const json::object& body) {
  return read_request<image_request>(body, {"num_outputs", "steps"}, image_size, [](field_reader& in, image_request& r) {
    r.num_outputs = static_cast<int>(in.integer("num_outputs", 1, 4).value_or(1));
    r.steps = static_cast<int>(in.integer("steps", 1, 100).value_or(30));
  });
}

checked<video_request> validate_video_request(const json::object& body) {
  return read_request<video_request>(body, {"duration_seconds", "fps"}, video_size, [](field_reader& in, video_request& r) {
    auto duration = in.integer("duration_seconds", 1, 10);
    auto fps = in.integer("fps", 8, 30);
    r.duration_seconds = static_cast<int>(duration.value_or(4));
    r.fps = static_cast<int>(fps.value_or(24));
    r.duration_given = duration.has_value();
    r.fps_given = fps.has_value();
  });
}

} // namespace svc::schema
