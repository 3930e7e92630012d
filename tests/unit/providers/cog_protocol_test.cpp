// The Cog protocol as svcd speaks it: the input map applied (LoRAs as
// `|`-joined lists, init image and strength only with an init image,
// constants last), states of both servers' answers and webhooks, tqdm
// progress in logs, refusals of both profiles, outputs as one URI or a list,
// and the input map checked against an /openapi.json (names, types, the
// $ref'd enum, required inputs).
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include "providers/cog/cog_protocol.hpp"
#include "providers/engine_output.hpp"

namespace json = boost::json;
using namespace svc::providers;

namespace {

model_setup sdxl_setup() {
  model_setup s;
  s.cog_inputs = {{"prompt", "prompt"},       {"seed", "seed"},          {"width", "width"},
                  {"height", "height"},       {"steps", "num_steps"},    {"num_outputs", "num_outputs"},
                  {"init_image", "image"},    {"denoise", "strength"},   {"loras", "lora_urls"},
                  {"lora_weights", "lora_scales"}};
  s.cog_constants = {{"scheduler", "K_EULER"}};
  s.denoise = 0.6;
  return s;
}

const char* openapi = R"({"openapi":"3.0.2","components":{"schemas":{
  "Input":{"type":"object","required":["prompt"],"properties":{
    "prompt":{"type":"string","x-order":0},"seed":{"type":"integer"},"width":{"type":"integer"},
    "height":{"type":"integer"},"num_steps":{"type":"integer"},"num_outputs":{"type":"integer"},
    "image":{"type":"string","format":"uri"},"strength":{"type":"number"},
    "lora_urls":{"type":"string"},"lora_scales":{"type":"string"},
    "scheduler":{"allOf":[{"$ref":"#/components/schemas/scheduler"}],"default":"K_EULER"}}},
  "scheduler":{"enum":["K_EULER","DDIM"],"type":"string"}}}})";

} // namespace

BOOST_AUTO_TEST_SUITE(providers_cog_protocol)

BOOST_AUTO_TEST_CASE(the_input_map_puts_each_field_under_the_models_name) {
  render_request r;
  r.prompt = "a fox";
  r.seed = 7;
  r.width = 320;
  r.height = 256;
  r.steps = 12;
  r.num_outputs = 2;
  r.loras = {{"watercolor", 0.8}, {"neon", 0.5}};
  auto setup = sdxl_setup();
  auto in = cog_input(setup, {&r, {}, {"w.safetensors", "n.safetensors"}});
  BOOST_TEST(in.at("prompt") == "a fox");
  BOOST_TEST(in.at("seed").as_uint64() == 7u);
  BOOST_TEST(in.at("num_steps").to_number<int>() == 12);
  BOOST_TEST(in.at("num_outputs").to_number<int>() == 2);
  BOOST_TEST(in.at("lora_urls") == "w.safetensors|n.safetensors");
  BOOST_TEST(in.at("lora_scales") == "0.8|0.5");
  BOOST_TEST(in.at("scheduler") == "K_EULER");
  BOOST_TEST(!in.contains("image"), "no init image, no image input");
  BOOST_TEST(!in.contains("strength"));
  auto with_init = cog_input(setup, {&r, "data:image/png;base64,AAAA", {"w", "n"}});
  BOOST_TEST(with_init.at("image") == "data:image/png;base64,AAAA");
  BOOST_TEST(with_init.at("strength").to_number<double>() == 0.6);
  r.loras.clear();
  BOOST_TEST(!cog_input(setup, {&r, {}, {}}).contains("lora_urls"));
}

BOOST_AUTO_TEST_CASE(the_prediction_body_asks_for_every_webhook_event) {
  auto body = json::parse(cog_prediction_body("img_1", {{"prompt", "x"}}, "http://h/cog/predictions/img_1?token=t"));
  BOOST_TEST(body.at("id") == "img_1");
  BOOST_TEST(body.at("webhook") == "http://h/cog/predictions/img_1?token=t");
  BOOST_TEST(body.at("webhook_events_filter").as_array().size() == 4u);
}

BOOST_AUTO_TEST_CASE(states_of_both_servers_parse) {
  auto coglet = cog_parse_state(R"({"id":"a","status":"starting"})");
  BOOST_REQUIRE(coglet);
  BOOST_TEST(!coglet->terminal());
  auto python = cog_parse_state(R"({"input":{},"id":"a","status":"processing","logs":"x"})");
  BOOST_REQUIRE(python);
  BOOST_TEST(python->status == "processing");
  auto failed = cog_parse_state(R"({"id":"a","status":"failed","error":"CUDA out of memory","logs":""})");
  BOOST_REQUIRE(failed);
  BOOST_TEST(failed->terminal());
  BOOST_TEST(failed->error == "CUDA out of memory");
  auto done = cog_parse_state(R"({"id":"a","status":"succeeded","output":["data:image/png;base64,AA"]})");
  BOOST_REQUIRE(done);
  BOOST_TEST(cog_output_uris(done->output).size() == 1u);
  BOOST_TEST(cog_output_uris(json::value("data:video/mp4;base64,AA")).size() == 1u);
  BOOST_TEST(cog_output_uris(json::value(3)).empty());
  for (auto bad : {"", "[]", "{}", R"({"status":"exploded"})", "{\"status\":"})
    BOOST_TEST(!cog_parse_state(bad), bad);
}

BOOST_AUTO_TEST_CASE(progress_is_the_last_tqdm_percentage_of_the_logs) {
  BOOST_TEST(!cog_log_progress("loading weights"));
  auto p = cog_log_progress("  3%|▎ | 1/30\n 40%|████ | 12/30\n");
  BOOST_REQUIRE(p);
  BOOST_TEST(*p == 0.4);
  BOOST_TEST(*cog_log_progress("100%|██████████| 30/30") == 1.0);
}

BOOST_AUTO_TEST_CASE(refusals_of_both_profiles_read_as_one_line) {
  BOOST_TEST(cog_refusal(409, R"({"error":"At capacity - all prediction slots busy","status":"failed"})") ==
             "HTTP 409: At capacity - all prediction slots busy");
  BOOST_TEST(cog_refusal(409, R"({"detail":"Already running a prediction"})") ==
             "HTTP 409: Already running a prediction");
  BOOST_TEST(cog_refusal(422, R"({"detail":[{"loc":["body","input","prompt"],"msg":"Field required","type":"value_error.missing"}]})") ==
             "HTTP 422: prompt: Field required");
  BOOST_TEST(cog_refusal(500, "<html>") == "HTTP 500");
  BOOST_TEST(cog_health(R"({"status":"READY","setup":{}})") == "READY");
  BOOST_TEST(cog_health("nope").empty());
}

BOOST_AUTO_TEST_CASE(an_input_map_is_checked_against_the_schema) {
  auto setup = sdxl_setup();
  BOOST_TEST(cog_check_inputs(openapi, setup).empty(), cog_check_inputs(openapi, setup));
  auto missing = setup;
  missing.cog_inputs["steps"] = "steps";
  BOOST_TEST(cog_check_inputs(openapi, missing).find("no input 'steps'") != std::string::npos);
  auto wrong_type = setup;
  wrong_type.cog_inputs["seed"] = "prompt";
  BOOST_TEST(cog_check_inputs(openapi, wrong_type).find("'prompt' is string") != std::string::npos);
  auto no_file = setup;
  no_file.cog_inputs["init_image"] = "lora_urls";
  BOOST_TEST(cog_check_inputs(openapi, no_file).find("format uri") != std::string::npos);
  auto bad_constant = setup;
  bad_constant.cog_constants["sampler"] = "DDIM";
  BOOST_TEST(cog_check_inputs(openapi, bad_constant).find("'sampler'") != std::string::npos);
  auto unrequired = setup;
  unrequired.cog_inputs.erase("prompt");
  unrequired.cog_inputs["negative_prompt"] = "lora_scales";
  BOOST_TEST(cog_check_inputs(openapi, unrequired).find("requires the input 'prompt'") != std::string::npos);
  // A $ref to a component that is no object (a hostile or broken schema) is refused, not followed.
  const char* bad_ref = R"({"components":{"schemas":{"Input":{"properties":{
    "prompt":{"type":"string"},"image":{"allOf":[{"$ref":"#/components/schemas/file"}]}}},"file":3}}})";
  model_setup takes_image;
  takes_image.cog_inputs = {{"prompt", "prompt"}, {"init_image", "image"}};
  BOOST_TEST(cog_check_inputs(bad_ref, takes_image).find("format uri") != std::string::npos);
  BOOST_TEST(!cog_check_inputs("{}", setup).empty());
  BOOST_TEST(!cog_check_inputs("not json", setup).empty());
}

BOOST_AUTO_TEST_CASE(data_uris_decode_within_their_bound) {
  std::string error;
  auto d = decode_data_uri("data:image/png;base64,aGVsbG8=", 100, error);
  BOOST_REQUIRE(d);
  BOOST_TEST(d->media_type == "image/png");
  BOOST_TEST(d->bytes == "hello");
  BOOST_TEST(!decode_data_uri("data:image/png;base64,aGVsbG8=", 4, error));
  BOOST_TEST(error.find("over 4 bytes") != std::string::npos);
  BOOST_TEST(!decode_data_uri(std::string("data:;base64,") + std::string(4000, 'A'), 100, error), "refused before decoding");
  BOOST_TEST(!decode_data_uri("data:text/plain,hello", 100, error));
  BOOST_TEST(!decode_data_uri("http://x/y.png", 100, error));
  BOOST_TEST(!decode_data_uri("data:image/png;base64,***", 100, error));
}

BOOST_AUTO_TEST_SUITE_END()
