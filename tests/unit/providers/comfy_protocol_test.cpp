// The ComfyUI protocol as svcd speaks it: bindings fill literal inputs, a
// LoRA stack becomes a LoraLoader chain re-linked into every consumer of the
// checkpoint, refusals name the node, events and history parse (outputs of
// every node, videos under `images`), and malformed answers do not pass.
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include "providers/comfyui/comfy_protocol.hpp"

namespace json = boost::json;
using namespace svc::providers;

namespace {

comfy_workflow text_to_image() {
  comfy_workflow w;
  w.path = "t2i.json";
  w.graph = json::parse(R"({
    "4":{"class_type":"CheckpointLoaderSimple","inputs":{"ckpt_name":"sdxl.safetensors"}},
    "5":{"class_type":"EmptyLatentImage","inputs":{"width":1024,"height":1024,"batch_size":1}},
    "6":{"class_type":"CLIPTextEncode","inputs":{"text":"","clip":["4",1]}},
    "7":{"class_type":"CLIPTextEncode","inputs":{"text":"","clip":["4",1]}},
    "3":{"class_type":"KSampler","inputs":{"seed":0,"steps":20,"model":["4",0],"positive":["6",0],
         "negative":["7",0],"latent_image":["5",0]}},
    "8":{"class_type":"VAEDecode","inputs":{"samples":["3",0],"vae":["4",2]}},
    "9":{"class_type":"SaveImage","inputs":{"images":["8",0]}}})").as_object();
  w.bindings = {{"prompt", {"6", "text"}}, {"seed", {"3", "seed"}}, {"width", {"5", "width"}},
                {"num_outputs", {"5", "batch_size"}}};
  return w;
}

} // namespace

BOOST_AUTO_TEST_SUITE(providers_comfy_protocol)

BOOST_AUTO_TEST_CASE(bindings_fill_the_literal_inputs) {
  render_request r;
  r.prompt = "a fox";
  r.seed = 42;
  r.width = 512;
  r.num_outputs = 3;
  auto p = comfy_prompt(text_to_image(), {&r, {}, {}, 0.75});
  auto& g = std::get<json::object>(p);
  BOOST_TEST(g.at("6").at("inputs").at("text") == "a fox");
  BOOST_TEST(g.at("3").at("inputs").at("seed").to_number<int>() == 42);
  BOOST_TEST(g.at("5").at("inputs").at("width").to_number<int>() == 512);
  BOOST_TEST(g.at("5").at("inputs").at("batch_size").to_number<int>() == 3);
  BOOST_TEST(g.at("5").at("inputs").at("height").to_number<int>() == 1024, "unbound inputs stay");
}

BOOST_AUTO_TEST_CASE(a_lora_stack_is_a_chain_after_the_checkpoint) {
  render_request r;
  r.loras = {{"a", 0.8}, {"b", -0.5}};
  auto g = std::get<json::object>(comfy_prompt(text_to_image(), {&r, {}, {"a.safetensors", "b.safetensors"}, 0.75}));
  auto& first = g.at("svc_lora_1").at("inputs");
  auto& second = g.at("svc_lora_2").at("inputs");
  BOOST_TEST(first.at("model") == json::array({"4", 0}));
  BOOST_TEST(first.at("clip") == json::array({"4", 1}));
  BOOST_TEST(first.at("lora_name") == "a.safetensors");
  BOOST_TEST(second.at("model") == json::array({"svc_lora_1", 0}));
  BOOST_TEST(second.at("strength_clip").to_number<double>() == -0.5);
  BOOST_TEST(g.at("3").at("inputs").at("model") == json::array({"svc_lora_2", 0}));
  BOOST_TEST(g.at("6").at("inputs").at("clip") == json::array({"svc_lora_2", 1}));
  BOOST_TEST(g.at("8").at("inputs").at("vae") == json::array({"4", 2}), "the VAE still comes from the checkpoint");
}

BOOST_AUTO_TEST_CASE(loras_need_a_checkpoint_loader) {
  auto w = text_to_image();
  w.graph.erase("4");
  render_request r;
  r.loras = {{"a", 1.0}};
  BOOST_TEST(std::holds_alternative<provider_error>(comfy_prompt(w, {&r, {}, {"a"}, 0.75})));
}

BOOST_AUTO_TEST_CASE(a_refusal_names_its_node_and_message) {
  BOOST_TEST(!comfy_submit_refusal(200, R"({"prompt_id":"x","number":1,"node_errors":{}})"));
  auto line = comfy_submit_refusal(400, R"({"error":{"type":"prompt_outputs_failed_validation","message":"Prompt outputs failed validation"},
    "node_errors":{"4":{"class_type":"CheckpointLoaderSimple","errors":[{"type":"value_not_in_list",
    "message":"Value not in list","details":"ckpt_name: 'x' not in []"}]}}})");
  BOOST_REQUIRE(line);
  BOOST_TEST(*line == "the engine refused node 4 (CheckpointLoaderSimple): Value not in list: ckpt_name: 'x' not in []");
  BOOST_TEST(comfy_submit_refusal(400, R"({"error":{"type":"invalid_prompt","message":"Cannot execute"},"node_errors":{}})")
               ->find("invalid_prompt") != std::string::npos);
  BOOST_TEST(*comfy_submit_refusal(500, "<html>") == "the engine answered POST /prompt with HTTP 500");
  // An older server's own id is followed; one that could break a URL path is not.
  BOOST_TEST(comfy_accepted_id(R"({"prompt_id":"8a1b-77","number":3,"node_errors":{}})") == "8a1b-77");
  BOOST_TEST(comfy_accepted_id(R"({"prompt_id":"../../x","number":3})").empty());
  BOOST_TEST(comfy_accepted_id("[").empty());
  BOOST_TEST(comfy_submit_refusal(200, R"({"prompt_id":"x","node_errors":{"3":{"errors":[]}}})").has_value(),
             "a 200 with node errors is a refusal");
}

BOOST_AUTO_TEST_CASE(events_and_history_parse) {
  auto e = comfy_parse_event(R"({"type":"progress","data":{"value":3,"max":10,"prompt_id":"p"}})");
  BOOST_REQUIRE(e);
  BOOST_TEST(e->value == 3.0);
  BOOST_TEST(e->max == 10.0);
  auto end = comfy_parse_event(R"({"type":"executing","data":{"node":null,"prompt_id":"p"}})");
  BOOST_REQUIRE(end);
  BOOST_TEST(end->node_null);
  BOOST_TEST(!comfy_parse_event("not json"));
  BOOST_TEST(!comfy_parse_event(R"({"type":"status"})"));

  auto h = comfy_parse_history(R"({"p":{"status":{"status_str":"success","messages":[]},
    "outputs":{"9":{"images":[{"filename":"a.png","subfolder":"","type":"output"}]},
               "13":{"images":[{"filename":"v.mp4","subfolder":"video","type":"output"}],"animated":[true]}}}})", "p");
  auto& got = std::get<0>(h);
  BOOST_REQUIRE(got);
  BOOST_TEST(got->success);
  BOOST_TEST(got->files.size() == 2u);
  BOOST_TEST(!std::get<0>(comfy_parse_history("{}", "p")), "not finished yet");
  BOOST_TEST(std::holds_alternative<provider_error>(comfy_parse_history("[", "p")));
  auto oom = comfy_parse_history(R"({"p":{"status":{"status_str":"error","messages":[["execution_error",
    {"exception_type":"torch.OutOfMemoryError"}]]},"outputs":{}}})", "p");
  BOOST_REQUIRE(std::get<0>(oom));
  BOOST_TEST(std::get<0>(oom)->exception_type == "torch.OutOfMemoryError");
  BOOST_TEST(comfy_content_type("x.webm") == "video/webm");
  BOOST_TEST(comfy_content_type("x.png") == "image/png");
}

BOOST_AUTO_TEST_SUITE_END()
