#include "providers/remote/a1111_protocol.hpp"

#include <charconv>
#include <cstdint>

#include <boost/json.hpp>

#include "core/crypto.hpp"

namespace svc::providers {
namespace json = boost::json;
namespace {

constexpr std::size_t max_snippet_chars = 200;
// A PNG's text chunks (A1111 writes the prompt and settings into one).
constexpr std::size_t png_metadata_bytes = 64 * 1024;
// An answer's JSON beside its images: `parameters` (the prompts) and `info`.
constexpr std::size_t answer_fields_bytes = 1 << 20;

std::size_t base64_size(std::size_t bytes) { return (bytes + 2) / 3 * 4; }

// A1111 reads `<name:args>` anywhere in a prompt as an extra network; only
// the tokens we append may name one.
std::string without_angle_brackets(std::string_view text) {
  std::string out(text);
  for (auto& c : out)
    if (c == '<' || c == '>')
      c = ' ';
  return out;
}

std::string shortest(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, end) : std::string("1");
}

std::uint32_t be32(std::string_view s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

// Checks the signature and the IHDR chunk that must follow it (PNG spec 5.2,
// 11.2.2); empty when fine, else why not.
std::string check_png(std::string_view png, const render_request& req) {
  static constexpr std::string_view signature{"\x89PNG\r\n\x1a\n", 8};
  if (png.size() < 33 || png.substr(0, 8) != signature || be32(png, 8) != 13 || png.substr(12, 4) != "IHDR")
    return "is not a PNG";
  auto w = be32(png, 16);
  auto h = be32(png, 20);
  if (w != static_cast<std::uint32_t>(req.width) || h != static_cast<std::uint32_t>(req.height))
    return "is " + std::to_string(w) + "x" + std::to_string(h) + ", not the requested " + std::to_string(req.width) +
           "x" + std::to_string(req.height);
  if (png.size() > a1111_max_png_bytes(req.width, req.height))
    return "has " + std::to_string(png.size()) + " bytes, more than any PNG of its size";
  return {};
}

} // namespace

std::size_t a1111_max_png_bytes(int width, int height) {
  // Each row: a filter byte and 4 bytes a pixel. Stored deflate blocks and
  // IDAT chunks add 5 and 12 bytes per block; 1/256 covers them for any
  // block size from 4 KiB up.
  const auto raw = static_cast<std::size_t>(height) * (1 + 4 * static_cast<std::size_t>(width));
  return raw + raw / 256 + png_metadata_bytes;
}

std::size_t a1111_answer_limit(const render_request& req) {
  const auto images = static_cast<std::size_t>(req.num_outputs) + 1; // a grid may come first
  return images * base64_size(a1111_max_png_bytes(req.width, req.height)) + base64_size(req.init_image.size()) +
         answer_fields_bytes;
}

std::string_view a1111_render_path(const render_request& req) {
  return req.init_image.empty() ? a1111_txt2img_path : a1111_img2img_path;
}

std::string a1111_prompt(const render_request& req) {
  auto prompt = without_angle_brackets(req.prompt);
  for (auto& l : req.loras)
    prompt += " <lora:" + l.slug + ":" + shortest(l.weight) + ">";
  return prompt;
}

std::string a1111_render_body(const render_request& req) {
  json::object body;
  body["prompt"] = a1111_prompt(req);
  body["negative_prompt"] = without_angle_brackets(req.negative_prompt);
  body["seed"] = static_cast<std::int64_t>(req.seed);
  body["width"] = req.width;
  body["height"] = req.height;
  body["steps"] = req.steps;
  body["batch_size"] = req.num_outputs; // one batch: the server gives image i the seed + i
  body["n_iter"] = 1;
  body["save_images"] = false;
  body["send_images"] = true;
  if (!req.init_image.empty()) {
    body["init_images"] = json::array{json::string(core::base64_encode(req.init_image))};
    body["denoising_strength"] = a1111_denoising_strength;
  }
  return json::serialize(body);
}

render_outcome a1111_parse_images(std::string_view body, const render_request& req) {
  json::error_code ec;
  auto doc = json::parse(body, ec);
  if (ec || !doc.is_object())
    return provider_error::failed("the back end answered something other than a JSON object");
  auto* images = doc.as_object().if_contains("images");
  if (!images || !images->is_array())
    return provider_error::failed("the back end's answer has no images");
  auto& list = images->as_array();
  const auto asked = static_cast<std::size_t>(req.num_outputs);
  // With a batch, A1111 may put a grid of the whole batch first.
  const std::size_t skip = list.size() == asked + 1 ? 1 : 0;
  if (list.size() - skip != asked)
    return provider_error::failed("the back end answered " + std::to_string(list.size()) + " images for " +
                                  std::to_string(asked) + " asked");
  render_result result;
  result.width = req.width;
  result.height = req.height;
  for (std::size_t i = skip; i < list.size(); ++i) {
    const auto n = std::to_string(i - skip);
    auto* text = list[i].if_string();
    auto png = text ? core::base64_decode(*text) : std::nullopt;
    if (!png)
      return provider_error::failed("image " + n + " of the back end's answer is not base64");
    if (auto why = check_png(*png, req); !why.empty())
      return provider_error::failed("image " + n + " of the back end's answer " + why);
    result.outputs.push_back(std::move(*png));
  }
  return result;
}

std::optional<double> a1111_parse_progress(std::string_view body) {
  json::error_code ec;
  auto doc = json::parse(body, ec);
  if (ec || !doc.is_object())
    return std::nullopt;
  auto* p = doc.as_object().if_contains("progress");
  if (!p)
    return std::nullopt;
  auto v = p->to_number<double>(ec);
  if (ec)
    return std::nullopt;
  return v < 0 ? 0.0 : (v > 1 ? 1.0 : v);
}

std::string a1111_error_snippet(std::string_view body) {
  std::string out;
  bool space = false;
  for (char c : body) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f) {
      space = !out.empty();
      continue;
    }
    if (out.size() + (space ? 1 : 0) >= max_snippet_chars) {
      out += "...";
      return out;
    }
    if (space)
      out.push_back(' ');
    space = false;
    out.push_back(u >= 0x80 ? '?' : c);
  }
  return out;
}

} // namespace svc::providers
