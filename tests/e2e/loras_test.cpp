// LoRA choice on POST /v1/images: `lora_id` by id or slug, a `loras` stack
// with weights echoed in order, both or unknown names refused with the
// param named, and selection from prompt keywords ("auto") or none.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_loras)

using namespace svc::e2e;
namespace json = boost::json;

namespace {

// The id of the catalogue LoRA with `slug`.
std::string lora_id_of(http_client& c, const std::string& key, const std::string& slug) {
  auto list = c.get("/v1/loras?limit=100", with_key(key)).json();
  for (long i = 0; i < json_size(list, "data"); ++i)
    if (json_str(list, "data." + std::to_string(i) + ".slug") == slug)
      return json_str(list, "data." + std::to_string(i) + ".id");
  return {};
}

struct lora_fixture : server_fixture {
  team_keys t = create_team_with_keys(100000);
  http_client c = api();

  json::value create(json::object body) { return create_image_ok(c, t.write.key, body); }

  response create_raw(const json::object& body) { return create_image(c, t.write.key, body); }
};

json::object with(json::object body, std::string_view field, json::value v) {
  body[field] = std::move(v);
  return body;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(loras, lora_fixture)

BOOST_AUTO_TEST_CASE(lora_id_takes_an_id_or_a_slug) {
  auto id = lora_id_of(c, t.read.key, "watercolor");
  BOOST_REQUIRE(id.rfind("lora_", 0) == 0u);
  for (auto name : {id, std::string{"watercolor"}}) {
    BOOST_TEST_CONTEXT("lora_id " << name) {
      auto job = create(with(image_body("a plain grey box"), "lora_id", json::value(name)));
      BOOST_TEST(json_str(job, "lora_selection") == "explicit");
      BOOST_TEST(json_size(job, "loras") == 1);
      BOOST_TEST(json_str(job, "loras.0.lora") == id);
      BOOST_TEST(json_str(job, "loras.0.slug") == "watercolor");
      BOOST_TEST(json_int(job, "loras.0.weight") == 1);
      auto done = wait_terminal(c, t.read.key, json_str(job, "id"));
      BOOST_TEST(json_str(done, "status") == "succeeded", done);
      BOOST_REQUIRE(json_at(done, "loras") != nullptr);
      BOOST_TEST(*json_at(done, "loras") == *json_at(job, "loras"));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_stack_echoes_each_lora_with_its_weight_in_order) {
  auto pixel = lora_id_of(c, t.read.key, "pixel-art");
  json::array stack{json::object{{"lora", "neon-noir"}, {"weight", 0.5}},
                    json::object{{"lora", pixel}, {"weight", -1.25}},
                    json::object{{"lora", "ukiyo-e"}}};
  // Keywords of other styles in the prompt do not matter when the caller chose.
  auto job = create(with(image_body("a watercolor of a pencil sketch"), "loras", stack));
  BOOST_TEST(json_str(job, "lora_selection") == "explicit");
  BOOST_REQUIRE(json_size(job, "loras") == 3);
  BOOST_TEST(json_str(job, "loras.0.slug") == "neon-noir");
  BOOST_TEST(json_str(job, "loras.0.lora") == lora_id_of(c, t.read.key, "neon-noir"));
  BOOST_TEST(json_at(job, "loras.0.weight")->to_number<double>() == 0.5);
  BOOST_TEST(json_str(job, "loras.1.lora") == pixel);
  BOOST_TEST(json_str(job, "loras.1.slug") == "pixel-art");
  BOOST_TEST(json_at(job, "loras.1.weight")->to_number<double>() == -1.25);
  BOOST_TEST(json_str(job, "loras.2.slug") == "ukiyo-e");
  BOOST_TEST(json_int(job, "loras.2.weight") == 1, "weight defaults to 1");
  auto done = wait_terminal(c, t.read.key, json_str(job, "id"));
  BOOST_TEST(json_str(done, "status") == "succeeded", done);
  BOOST_REQUIRE(json_at(done, "loras") != nullptr);
  BOOST_TEST(*json_at(done, "loras") == *json_at(job, "loras"));
}

BOOST_AUTO_TEST_CASE(refused_choices_name_the_param_and_create_nothing) {
  auto before = get_balance(c, t.read.key);
  json::array one{json::object{{"lora", "watercolor"}, {"weight", 1}}};
  struct {
    std::string name;
    json::object body;
    std::string param;
  } cases[] = {
    {"both lora_id and loras", with(with(image_body(), "lora_id", "watercolor"), "loras", one), "loras"},
    {"unknown lora_id", with(image_body(), "lora_id", "no-such-style"), "lora_id"},
    {"unknown lora id shape", with(image_body(), "lora_id", "lora_00000000000000000000000000"), "lora_id"},
    {"unknown first stack entry",
     with(image_body(), "loras", json::array{json::object{{"lora", "nope"}, {"weight", 1}}}), "loras[0].lora"},
    {"unknown second stack entry",
     with(image_body(), "loras", json::array{json::object{{"lora", "watercolor"}}, json::object{{"lora", "nope"}}}),
     "loras[1].lora"},
    {"the same LoRA twice",
     with(image_body(), "loras",
          json::array{json::object{{"lora", "watercolor"}}, json::object{{"lora", "watercolor"}}}),
     "loras[1].lora"},
    {"weight out of range",
     with(image_body(), "loras", json::array{json::object{{"lora", "watercolor"}, {"weight", 2.5}}}),
     "loras[0].weight"},
    {"empty stack", with(image_body(), "loras", json::array{}), "loras"},
    {"six LoRAs",
     with(image_body(), "loras",
          json::array{json::object{{"lora", "watercolor"}}, json::object{{"lora", "neon-noir"}},
                      json::object{{"lora", "oil-painting"}}, json::object{{"lora", "pixel-art"}},
                      json::object{{"lora", "ukiyo-e"}}, json::object{{"lora", "low-poly"}}}),
     "loras"},
    {"lora_id not a string", with(image_body(), "lora_id", 7), "lora_id"},
  };
  for (auto& k : cases) {
    BOOST_TEST_CONTEXT(k.name << ": " << json::serialize(k.body)) {
      auto r = create_raw(k.body);
      BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == k.param);
    }
  }
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
  BOOST_TEST(get_balance(c, t.read.key).available == before.available);
}

BOOST_AUTO_TEST_CASE(a_prompt_keyword_selects_a_lora_automatically) {
  struct {
    std::string prompt, slug;
  } cases[] = {
    {"a neon city at night", "neon-noir"},
    {"Portrait in OIL on canvas", "oil-painting"},
    {"an 8-bit sprite for a retro game", "pixel-art"},
    {"a soft-focus watercolour landscape", "watercolor"},
  };
  for (auto& k : cases) {
    BOOST_TEST_CONTEXT(k.prompt) {
      auto job = create(image_body(k.prompt));
      BOOST_TEST(json_str(job, "lora_selection") == "auto");
      BOOST_TEST(json_size(job, "loras") == 1);
      BOOST_TEST(json_str(job, "loras.0.slug") == k.slug);
      BOOST_TEST(json_str(job, "loras.0.lora") == lora_id_of(c, t.read.key, k.slug));
      BOOST_TEST(json_str(wait_terminal(c, t.read.key, json_str(job, "id")), "lora_selection") == "auto");
    }
  }
}

BOOST_AUTO_TEST_CASE(no_keyword_selects_none) {
  for (std::string prompt : {"a plain grey box", "neonlights and softness", "ネオン"}) {
    BOOST_TEST_CONTEXT(prompt) {
      auto job = create(image_body(prompt));
      BOOST_TEST(json_str(job, "lora_selection") == "none");
      BOOST_TEST(json_size(job, "loras") == 0);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
