#include "providers/remote/a1111_protocol.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "png_header.hpp"
#include "providers/image.hpp"
#include "providers/png_writer.hpp"

BOOST_AUTO_TEST_SUITE(providers_a1111_protocol)

using namespace svc::providers;
namespace json = boost::json;

namespace {

render_request sample() {
  render_request req;
  req.prompt = "a lighthouse at dusk";
  req.negative_prompt = "blurry";
  req.width = 512;
  req.height = 384;
  req.seed = 4000000000u;
  req.steps = 25;
  req.num_outputs = 2;
  return req;
}

json::object body_of(const render_request& req) { return json::parse(a1111_render_body(req)).as_object(); }

std::string png(int w, int h) {
  std::string out, error;
  BOOST_REQUIRE(encode_png(image(w, h), {}, out, error));
  return out;
}

std::string answer(const std::vector<std::string>& pngs) {
  json::array images;
  for (auto& p : pngs)
    images.emplace_back(svc::core::base64_encode(p));
  return json::serialize(json::object{{"images", images}, {"info", "{}"}});
}

std::string message_of(const render_outcome& o) { return o.ok() ? std::string("ok") : o.error().message; }

// A PNG of random pixels, which no encoder can shrink.
std::string noise_png(int w, int h) {
  image img(w, h);
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.at(x, y) = {next(), next(), next()};
  std::string out, error;
  BOOST_REQUIRE(encode_png(img, {}, out, error));
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(txt2img_body_carries_every_parameter) {
  auto req = sample();
  BOOST_TEST(a1111_render_path(req) == "/sdapi/v1/txt2img");
  auto b = body_of(req);
  BOOST_TEST(b.at("prompt").as_string() == "a lighthouse at dusk");
  BOOST_TEST(b.at("negative_prompt").as_string() == "blurry");
  BOOST_TEST(b.at("seed").as_int64() == 4000000000);
  BOOST_TEST(b.at("width").as_int64() == 512);
  BOOST_TEST(b.at("height").as_int64() == 384);
  BOOST_TEST(b.at("steps").as_int64() == 25);
  BOOST_TEST(b.at("batch_size").as_int64() == 2);
  BOOST_TEST(b.at("n_iter").as_int64() == 1);
  BOOST_TEST(b.at("save_images").as_bool() == false);
  BOOST_TEST(b.at("send_images").as_bool() == true);
  BOOST_TEST(!b.contains("init_images"));
  BOOST_TEST(!b.contains("denoising_strength"));
}

BOOST_AUTO_TEST_CASE(loras_become_prompt_tokens_with_compact_weights) {
  auto req = sample();
  req.loras = {{"watercolor", 0.8}, {"pixel-art", 1.0}, {"neon-noir", -1.25}};
  BOOST_TEST(a1111_prompt(req) ==
             "a lighthouse at dusk <lora:watercolor:0.8> <lora:pixel-art:1> <lora:neon-noir:-1.25>");
  BOOST_TEST(body_of(req).at("prompt").as_string() == a1111_prompt(req));
}

BOOST_AUTO_TEST_CASE(a_prompt_cannot_name_extra_networks_itself) {
  auto req = sample();
  req.prompt = "a cat <lora:expensive:2> <hypernet:x:1>";
  req.negative_prompt = "<lora:ugly:1>";
  req.loras = {{"ukiyo-e", 0.5}};
  BOOST_TEST(a1111_prompt(req) == "a cat  lora:expensive:2   hypernet:x:1  <lora:ukiyo-e:0.5>");
  BOOST_TEST(body_of(req).at("negative_prompt").as_string() == " lora:ugly:1 ");
}

BOOST_AUTO_TEST_CASE(an_init_image_makes_an_img2img_body) {
  auto req = sample();
  req.init_image = std::string("\x89PNG\r\n\x1a\n\0binary", 15);
  BOOST_TEST(a1111_render_path(req) == "/sdapi/v1/img2img");
  auto b = body_of(req);
  auto& init = b.at("init_images").as_array();
  BOOST_REQUIRE(init.size() == 1u);
  BOOST_TEST(svc::core::base64_decode(init[0].as_string()).value_or("") == req.init_image);
  BOOST_TEST(b.at("denoising_strength").as_double() == a1111_denoising_strength);
  BOOST_TEST(b.at("width").as_int64() == 512, "img2img keeps the requested size");
}

BOOST_AUTO_TEST_CASE(images_of_an_answer_become_outputs) {
  auto req = sample();
  std::vector<std::string> pngs{png(512, 384), png(512, 384)};
  auto out = a1111_parse_images(answer(pngs), req);
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  BOOST_TEST(out.value().outputs == pngs);
  BOOST_TEST(out.value().content_type == "image/png");
  BOOST_TEST(out.value().width == 512);
  BOOST_TEST(out.value().height == 384);
}

BOOST_AUTO_TEST_CASE(a_leading_grid_is_dropped) {
  auto req = sample();
  std::vector<std::string> pngs{png(1024, 384), png(512, 384), png(512, 384)};
  auto out = a1111_parse_images(answer(pngs), req);
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  BOOST_TEST(out.value().outputs.size() == 2u);
  BOOST_TEST(out.value().outputs[0] == pngs[1]);
}

BOOST_AUTO_TEST_CASE(a_wrong_count_is_a_provider_error) {
  auto req = sample();
  for (std::size_t n : {0u, 1u, 4u}) {
    auto out = a1111_parse_images(answer(std::vector<std::string>(n, png(512, 384))), req);
    BOOST_REQUIRE(!out.ok());
    BOOST_TEST(out.error().code == "provider_error");
    BOOST_TEST(out.error().message.find(std::to_string(n) + " images for 2") != std::string::npos,
               out.error().message);
  }
}

BOOST_AUTO_TEST_CASE(a_wrong_size_or_a_non_png_is_a_provider_error) {
  auto req = sample();
  req.num_outputs = 1;
  auto small = a1111_parse_images(answer({png(256, 256)}), req);
  BOOST_REQUIRE(!small.ok());
  BOOST_TEST(small.error().message.find("256x256, not the requested 512x384") != std::string::npos,
             small.error().message);
  auto jpeg = a1111_parse_images(answer({"\xff\xd8\xff\xe0 not a png at all, but long enough to look at"}), req);
  BOOST_REQUIRE(!jpeg.ok());
  BOOST_TEST(jpeg.error().message.find("not a PNG") != std::string::npos, jpeg.error().message);
}

BOOST_AUTO_TEST_CASE(a_png_longer_than_any_of_its_size_is_a_provider_error) {
  auto req = sample();
  req.num_outputs = 1;
  auto padded = png(512, 384) + std::string(a1111_max_png_bytes(512, 384), '\0');
  auto out = a1111_parse_images(answer({padded}), req);
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
  BOOST_TEST(out.error().message.find("more than any PNG of its size") != std::string::npos, out.error().message);
}

BOOST_AUTO_TEST_CASE(the_answer_limit_holds_an_honest_answer_and_little_more) {
  auto req = sample();
  auto noisy = noise_png(512, 384);
  BOOST_TEST(noisy.size() <= a1111_max_png_bytes(512, 384));
  // A grid and the asked images, all incompressible.
  auto honest = answer({noise_png(1024, 384), noisy, noisy});
  BOOST_TEST(honest.size() <= a1111_answer_limit(req));
  BOOST_TEST(a1111_parse_images(honest, req).ok());

  req.width = req.height = 256;
  req.num_outputs = 1;
  BOOST_TEST(a1111_answer_limit(req) < (5u << 19), "a small image reads at most 2.5 MiB");
  req.width = req.height = 2048;
  req.num_outputs = 4;
  req.init_image = std::string(20u << 20, 'x');
  BOOST_TEST(a1111_answer_limit(req) < (136u << 20), "the largest job with the largest upload: 136 MiB");
}

BOOST_AUTO_TEST_CASE(malformed_answers_are_provider_errors) {
  auto req = sample();
  for (std::string body : {"", "not json", "[1,2]", "{\"images\": 3}", "{\"info\": \"{}\"}",
                           "{\"images\": [\"%%%not base64%%%\", \"\"]}", "{\"images\": [1, 2]}",
                           "{\"images\": [\"iVBORw0KGgo=\"], \"truncated"}) {
    auto out = a1111_parse_images(body, req);
    BOOST_TEST(!out.ok(), body);
    if (!out.ok())
      BOOST_TEST(out.error().code == "provider_error", body);
  }
}

BOOST_AUTO_TEST_CASE(progress_is_read_and_clamped) {
  BOOST_TEST(a1111_parse_progress(R"({"progress": 0.42, "eta_relative": 3.1, "state": {}})").value_or(-1) == 0.42);
  BOOST_TEST(a1111_parse_progress(R"({"progress": 0})").value_or(-1) == 0.0);
  BOOST_TEST(a1111_parse_progress(R"({"progress": 1.5})").value_or(-1) == 1.0);
  BOOST_TEST(a1111_parse_progress(R"({"progress": -2})").value_or(-1) == 0.0);
  BOOST_TEST(!a1111_parse_progress(R"({"progress": "half"})"));
  BOOST_TEST(!a1111_parse_progress(R"({"eta_relative": 1})"));
  BOOST_TEST(!a1111_parse_progress("<html>"));
}

BOOST_AUTO_TEST_CASE(error_snippets_are_short_and_clean) {
  BOOST_TEST(a1111_error_snippet("{\"errors\": \"CUDA out of memory.\r\n\tTried\"}") ==
             "{\"errors\": \"CUDA out of memory. Tried\"}");
  BOOST_TEST(a1111_error_snippet("  \x1b[31mred\x1b[0m \xc3\xa9  ") == "[31mred [0m ??");
  auto long_one = a1111_error_snippet(std::string(5000, 'x'));
  BOOST_TEST(long_one.size() == 203u);
  BOOST_TEST(long_one.substr(200) == "...");
  BOOST_TEST(a1111_error_snippet("").empty());
}

BOOST_AUTO_TEST_SUITE_END()
