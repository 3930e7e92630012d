// The programs of examples/ against a real svcd: the Python and the Node
// client each run every main flow (exit 0, the PNG on disk, the endpoint
// registered, two images made although the create was sent twice), and each
// Node webhook receiver (stock `stripe` and `standardwebhooks` libraries)
// acknowledges a real image.completed delivery and rejects a captured real
// delivery whose body was changed, while it accepts the same delivery unchanged.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <boost/json/object.hpp>

#include "clients/webhook_client.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/script_run.hpp"
#include "support/server_fixture.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_examples)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::string examples_dir = SVC_EXAMPLES_DIR;

// One render takes a second, so the clients' cancel reaches a running job.
struct examples_fixture : webhook_fixture {
  examples_fixture() : webhook_fixture({"--render-delay", "1s"}) {}
};

bool is_png_file(const std::string& path) {
  return read_file(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0;
}

// Runs a client example with a write key and checks what each flow left behind.
void check_client(examples_fixture& f, const std::string& interpreter, const std::string& script) {
  auto team = create_webhook_team(f);
  std::string out_dir = make_temp_dir("svc-example-out-");
  script_run run({"SVC_API_URL=" + f.svcd.api_url(), "SVC_API_KEY=" + team.write.key, "SVC_OUTPUT_DIR=" + out_dir,
                   "SVC_WEBHOOK_URL=" + f.hooks->url()},
                  interpreter, examples_dir + "/" + script);
  BOOST_REQUIRE_EQUAL(run.wait(60s), 0);
  auto output = run.output();
  BOOST_TEST_MESSAGE(output);

  BOOST_TEST(output.find("Idempotent-Replayed: true") != std::string::npos);
  BOOST_TEST(output.find(" succeeded\n") != std::string::npos);
  BOOST_TEST(output.find("cancelled img_") != std::string::npos);
  BOOST_TEST(output.find("listed 2 images in 2 pages") != std::string::npos);
  // The replayed create made nothing: one image made, one cancelled.
  auto api = f.api();
  auto ids = list_image_ids(api, team.read.key);
  BOOST_REQUIRE_EQUAL(ids.size(), 2u);
  BOOST_TEST(is_png_file(out_dir + "/" + ids[1] + ".png"));
  BOOST_TEST(json_str(get_image(api, team.read.key, ids[0]), "status") == "cancelled");

  auto endpoints = api.get("/v1/webhook_endpoints", {{"X-Api-Key", team.read.key}});
  BOOST_REQUIRE_EQUAL(endpoints.status, 200);
  auto endpoint_id = json_str(endpoints.json(), "data.0.id");
  BOOST_TEST(json_str(endpoints.json(), "data.0.url") == f.hooks->url());
  auto secret_file = out_dir + "/" + endpoint_id + ".secret";
  BOOST_TEST(read_file(secret_file).rfind("whsec_", 0) == 0);
  struct stat st {};
  BOOST_TEST((::stat(secret_file.c_str(), &st) == 0 && (st.st_mode & 0777) == 0600));
  BOOST_TEST(output.find(read_file(secret_file)) == std::string::npos); // the secret is never printed
  std::filesystem::remove_all(out_dir);
}

// Posts `request` over HTTPS trusting the test CA; the receiver's status (0 for none).
int post_delivery(svc::actors::webhook_post request) {
  svc::clients::webhook_client_options options;
  options.ca_file = webhook_ca_file();
  options.allow_private = true;
  svc::clients::webhook_client client{options};
  std::promise<svc::actors::webhook_answer> answer;
  client.post(std::move(request), [&](svc::actors::webhook_answer a) { answer.set_value(std::move(a)); });
  return answer.get_future().get().status.value_or(0);
}

// Starts a receiver example for an endpoint first pointed at the fixture's
// receiver (to capture one real delivery), then at the example.
void check_receiver(examples_fixture& f, const std::string& script, const std::string& scheme) {
  auto team = create_webhook_team(f);
  auto api = f.api();
  auto endpoint = create_endpoint_ok(api, team.write.key, f.hooks->url(), {"image.completed"});
  auto endpoint_id = json_str(endpoint, "id");
  create_image_ok(api, team.write.key, image_body());
  auto captured = wait_for_receipt(*f.hooks, type_is("image.completed"), 30s);
  BOOST_REQUIRE(captured);

  auto tls_dir = make_temp_dir("svc-example-tls-");
  std::ofstream{tls_dir + "/server.pem"} << webhook_test_pki().server.cert;
  std::ofstream{tls_dir + "/server.key"} << webhook_test_pki().server.key;
  auto port = std::to_string(closed_local_port());
  script_run receiver({"SVC_WEBHOOK_SECRET=" + json_str(endpoint, "secret"), "SVC_RECEIVER_PORT=" + port,
                        "SVC_RECEIVER_CERT=" + tls_dir + "/server.pem", "SVC_RECEIVER_KEY=" + tls_dir + "/server.key"},
                       "node", examples_dir + "/" + script);
  BOOST_REQUIRE_MESSAGE(receiver.wait_output("\"listening\"", 15s), receiver.output());
  auto receiver_url = "https://127.0.0.1:" + port + "/hooks";

  // A real delivery, verified by the stock library and acknowledged.
  auto patched = patch_endpoint(api, team.write.key, endpoint_id, json::object{{"url", receiver_url}});
  BOOST_REQUIRE_EQUAL(patched.status, 200);
  auto second = create_image_ok(api, team.write.key, image_body());
  wait_terminal(api, team.write.key, json_str(second, "id"));
  BOOST_REQUIRE_MESSAGE(receiver.wait_output("{\"verified\":true,\"scheme\":\"" + scheme, 30s), receiver.output());
  auto rows = wait_deliveries(api, team.read.key, endpoint_id, [&](auto& rows) {
    return rows.size() == 2 && json_str(rows[0], "status") == "succeeded";
  }, 30s);
  BOOST_TEST(rows.size() == 2u);

  // The captured delivery, replayed as it was (its t is seconds old): accepted.
  svc::actors::webhook_post replay{receiver_url, captured->request.headers, captured->request.body};
  BOOST_TEST(post_delivery(replay) == 200);
  // The same delivery with one byte of the body changed: rejected.
  auto tampered = replay;
  auto at = tampered.body.find("succeeded");
  BOOST_REQUIRE(at != std::string::npos);
  tampered.body[at] = 'S';
  BOOST_TEST(post_delivery(tampered) == 400);
  BOOST_TEST_REQUIRE(receiver.wait_output("{\"verified\":false,\"scheme\":\"" + scheme, 10s));
  BOOST_TEST_MESSAGE(receiver.output());
  BOOST_TEST(receiver.output().find(json_str(endpoint, "secret")) == std::string::npos);
  std::filesystem::remove_all(tls_dir);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(python_client_runs_every_flow, examples_fixture) {
  check_client(*this, "python3", "python/client.py");
}

BOOST_FIXTURE_TEST_CASE(node_client_runs_every_flow, examples_fixture) {
  check_client(*this, "node", "node/client.mjs");
}

BOOST_FIXTURE_TEST_CASE(stripe_receiver_verifies_svc_webhook_signature, examples_fixture) {
  check_receiver(*this, "node/receiver_stripe.mjs", "stripe");
}

BOOST_FIXTURE_TEST_CASE(standardwebhooks_receiver_verifies_webhook_signature, examples_fixture) {
  check_receiver(*this, "node/receiver_standardwebhooks.mjs", "standardwebhooks");
}

BOOST_AUTO_TEST_SUITE_END()
