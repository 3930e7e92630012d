#include "providers/remote/remote_backend.hpp"

#include <boost/test/unit_test.hpp>

#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "a1111_server.hpp"
#include "png_header.hpp"

BOOST_AUTO_TEST_SUITE(providers_remote_backend)

using namespace svc::providers;
using svc::test::a1111_mode;
using svc::test::a1111_server;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

namespace {

remote_options options_for(const std::string& url) {
  std::string why;
  auto u = parse_remote_url(url, why);
  BOOST_TEST_REQUIRE(u.has_value(), why);
  remote_options o;
  o.url = *u;
  o.timeout = 10s;
  o.connect_timeout = 2s;
  o.retries = 2;
  o.backoff = 20ms;
  o.poll = 20ms;
  return o;
}

render_request small_request() {
  render_request req;
  req.prompt = "a lighthouse at dusk";
  req.negative_prompt = "fog";
  req.width = 128;
  req.height = 64;
  req.seed = 77;
  req.steps = 12;
  req.num_outputs = 2;
  req.loras = {{"watercolor", 0.8}};
  return req;
}

// Collects progress reports from the rendering thread.
struct progress_log {
  std::mutex mutex;
  std::vector<double> values;
  progress_fn fn() {
    return [this](double p) {
      std::lock_guard lock(mutex);
      values.push_back(p);
    };
  }
  std::vector<double> get() {
    std::lock_guard lock(mutex);
    return values;
  }
};

// Waits up to `timeout` for `condition`; the tests' only way to wait.
template <class F>
bool eventually(F condition, std::chrono::milliseconds timeout = 5s) {
  auto deadline = steady::now() + timeout;
  while (!condition()) {
    if (steady::now() >= deadline)
      return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

std::string code_of(const render_outcome& o) { return o.ok() ? std::string("ok") : o.error().code; }
std::string message_of(const render_outcome& o) { return o.ok() ? std::string("ok") : o.error().message; }

} // namespace

BOOST_AUTO_TEST_CASE(a_render_sends_the_parameters_and_returns_the_servers_pngs) {
  a1111_server fake;
  remote_backend backend(options_for(fake.url()));
  BOOST_TEST(backend.name() == "remote");
  progress_log progress;
  auto out = backend.render(small_request(), progress.fn(), cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));

  auto renders = fake.renders();
  BOOST_REQUIRE(renders.size() == 1u);
  auto& body = renders[0];
  BOOST_TEST(body.at("prompt").as_string() == "a lighthouse at dusk <lora:watercolor:0.8>");
  BOOST_TEST(body.at("negative_prompt").as_string() == "fog");
  BOOST_TEST(body.at("seed").as_int64() == 77);
  BOOST_TEST(body.at("width").as_int64() == 128);
  BOOST_TEST(body.at("height").as_int64() == 64);
  BOOST_TEST(body.at("steps").as_int64() == 12);
  BOOST_TEST(body.at("batch_size").as_int64() == 2);

  auto sent = fake.images_sent();
  BOOST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(out.value().outputs == sent[0]);
  BOOST_TEST(out.value().outputs[0] != out.value().outputs[1], "seed + i gives each output its own pixels");
  BOOST_TEST(out.value().content_type == "image/png");
  auto header = svc::test::parse_png_header(out.value().outputs[1]);
  BOOST_REQUIRE(header);
  BOOST_TEST(header->width == 128u);
  BOOST_TEST(header->height == 64u);
  auto p = progress.get();
  BOOST_REQUIRE(p.size() >= 2u);
  BOOST_TEST(p.front() == 0.0);
  BOOST_TEST(p.back() == 1.0);
}

BOOST_AUTO_TEST_CASE(a_grid_is_dropped_and_credentials_are_sent) {
  a1111_server fake;
  fake.set_grid(true);
  remote_backend backend(options_for("http://svc:secret@127.0.0.1:" + std::to_string(fake.port())));
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  BOOST_TEST(out.value().outputs == fake.images_sent().at(0));
  BOOST_TEST(fake.requests().at(0).authorization == "Basic c3ZjOnNlY3JldA==");
}

// Every call of a render (the render, its progress polls, the interrupt of a
// cancel) is a span of its own in the trace of the request that created the job.
BOOST_AUTO_TEST_CASE(every_call_carries_the_requests_id_and_a_child_span_of_its_trace) {
  const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";
  a1111_server fake(a1111_mode::slow);
  fake.set_slow_time(200ms);
  remote_backend backend(options_for(fake.url()));
  auto req = small_request();
  req.correlation = {"client-abc", svc::schema::trace_parent{trace, "01"}};
  auto out = backend.render(req, {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  auto calls = fake.requests();
  BOOST_TEST(fake.count("/sdapi/v1/progress") >= 1u, "the render polled progress");
  std::set<std::string> spans;
  for (auto& call : calls) {
    BOOST_TEST(call.request_id == "client-abc", call.target);
    BOOST_TEST(call.traceparent.rfind("00-" + trace + "-", 0) == 0u, call.target << ": " << call.traceparent);
    BOOST_TEST(call.traceparent.substr(52) == "-01", call.target);
    spans.insert(call.traceparent.substr(36, 16));
  }
  BOOST_TEST(spans.size() == calls.size(), "each call is a span of its own");
}

BOOST_AUTO_TEST_CASE(without_a_correlation_no_such_header_is_sent) {
  a1111_server fake;
  remote_backend backend(options_for(fake.url()));
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  BOOST_TEST(fake.requests().at(0).request_id.empty());
  BOOST_TEST(fake.requests().at(0).traceparent.empty());
}

BOOST_AUTO_TEST_CASE(an_init_image_goes_to_img2img) {
  a1111_server fake;
  remote_backend backend(options_for(fake.url()));
  auto req = small_request();
  req.num_outputs = 1;
  req.init_image = std::string("\x89PNG\r\n\x1a\n-upload-", 16);
  auto out = backend.render(req, {}, cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  BOOST_TEST(fake.count("/sdapi/v1/img2img") == 1u);
  BOOST_TEST(fake.count("/sdapi/v1/txt2img") == 0u);
  BOOST_TEST(fake.renders().at(0).contains("denoising_strength"));
}

BOOST_AUTO_TEST_CASE(localhost_is_resolved) {
  a1111_server fake;
  remote_backend backend(options_for("http://localhost:" + std::to_string(fake.port())));
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_TEST(out.ok(), message_of(out));
}

// The engine's own words (paths, hosts, stacks of the operator's machine) go
// to the log; the message, which API clients see, only says what happened.
BOOST_AUTO_TEST_CASE(a_500_is_a_provider_error_without_the_engines_words_and_no_retry) {
  a1111_server fake(a1111_mode::fail_500);
  remote_backend backend(options_for(fake.url()));
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
  BOOST_TEST(out.error().message.find("HTTP 500") != std::string::npos, out.error().message);
  BOOST_TEST(out.error().message.find("CUDA") == std::string::npos, out.error().message);
  BOOST_TEST(fake.count("/sdapi/v1/txt2img") == 1u);
}

BOOST_AUTO_TEST_CASE(a_4xx_is_a_provider_error) {
  a1111_server fake;
  remote_backend backend(options_for(fake.url() + "/not-here"));
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
  BOOST_TEST(out.error().message.find("HTTP 404") != std::string::npos, out.error().message);
}

BOOST_AUTO_TEST_CASE(a_refused_connection_is_retried_with_backoff_then_unavailable) {
  a1111_server fake;
  fake.close();
  remote_backend backend(options_for(fake.url()));
  auto start = steady::now();
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_unavailable");
  BOOST_TEST(out.error().message.find("3 attempts") != std::string::npos, out.error().message);
  BOOST_TEST(out.error().message.find("127.0.0.1") == std::string::npos, "API clients learn no internal address");
  BOOST_TEST((steady::now() - start >= 60ms), "waits 20 ms, then 40 ms");
}

BOOST_AUTO_TEST_CASE(a_503_and_a_hang_up_are_retried_then_unavailable) {
  for (auto mode : {a1111_mode::fail_503, a1111_mode::hang_up}) {
    a1111_server fake(mode);
    remote_backend backend(options_for(fake.url()));
    auto out = backend.render(small_request(), {}, cancel_token{});
    BOOST_TEST(code_of(out) == "provider_unavailable");
    BOOST_TEST(fake.count("/sdapi/v1/txt2img") == 3u, "one attempt and two retries");
  }
}

BOOST_AUTO_TEST_CASE(a_retry_that_succeeds_is_a_success) {
  a1111_server fake(a1111_mode::fail_503);
  auto opts = options_for(fake.url());
  opts.backoff = 300ms;
  remote_backend backend(opts);
  std::thread heal([&] {
    eventually([&] { return fake.count("/sdapi/v1/txt2img") >= 1; });
    fake.set_mode(a1111_mode::ok);
  });
  auto out = backend.render(small_request(), {}, cancel_token{});
  heal.join();
  BOOST_TEST(code_of(out) == "ok");
  BOOST_TEST(fake.count("/sdapi/v1/txt2img") == 2u);
}

BOOST_AUTO_TEST_CASE(past_the_deadline_is_provider_timeout_and_an_interrupt) {
  // The server's answer after 5 s is the yardstick: a deadline that did not
  // fire first would let the render succeed.
  a1111_server fake(a1111_mode::slow);
  fake.set_slow_time(5s);
  auto opts = options_for(fake.url());
  opts.timeout = 300ms;
  remote_backend backend(opts);
  auto start = steady::now();
  auto out = backend.render(small_request(), {}, cancel_token{});
  BOOST_TEST(code_of(out) == "provider_timeout");
  BOOST_TEST(message_of(out).find("within 300ms") != std::string::npos, message_of(out));
  BOOST_TEST((steady::now() - start >= 300ms));
  BOOST_TEST(fake.interrupts() == 1u, "the GPU is told to stop");
}

BOOST_AUTO_TEST_CASE(cancel_during_a_render_interrupts_and_returns_promptly) {
  // The server renders for a minute and the deadline is later still, so a
  // render back within 30 s of the cancel was cut short by it.
  a1111_server fake(a1111_mode::slow);
  auto opts = options_for(fake.url());
  opts.timeout = 10min;
  remote_backend backend(opts);
  cancel_token cancel;
  auto req = small_request();
  req.correlation = {"client-abc", std::nullopt};
  auto render = std::async(std::launch::async, [&] { return backend.render(req, {}, cancel); });
  BOOST_REQUIRE(eventually([&] { return fake.count("/sdapi/v1/txt2img") == 1; }));
  cancel.cancel();
  BOOST_REQUIRE(render.wait_for(30s) == std::future_status::ready);
  auto out = render.get();
  BOOST_TEST(code_of(out) == "cancelled");
  BOOST_TEST(fake.interrupts() == 1u);
  for (auto& call : fake.requests())
    BOOST_TEST(call.request_id == "client-abc", call.target << ": the interrupt too");
}

BOOST_AUTO_TEST_CASE(progress_rises_while_the_server_renders) {
  a1111_server fake(a1111_mode::slow);
  fake.set_slow_time(600ms);
  remote_backend backend(options_for(fake.url()));
  progress_log progress;
  auto out = backend.render(small_request(), progress.fn(), cancel_token{});
  BOOST_REQUIRE_MESSAGE(out.ok(), message_of(out));
  auto p = progress.get();
  BOOST_TEST(fake.count("/sdapi/v1/progress?skip_current_image=true") >= 2u);
  std::size_t between = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i > 0)
      BOOST_TEST(p[i] > p[i - 1], "never decreasing, no repeats");
    between += p[i] > 0.0 && p[i] <= 0.99;
  }
  BOOST_TEST(between >= 2u, "several reports between start and end");
  BOOST_TEST(p.back() == 1.0);
}

BOOST_AUTO_TEST_CASE(videos_and_cancelled_tokens_send_nothing) {
  a1111_server fake;
  remote_backend backend(options_for(fake.url()));
  auto video = small_request();
  video.duration_seconds = 4;
  video.fps = 12;
  auto out = backend.render(video, {}, cancel_token{});
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == "provider_error");
  BOOST_TEST(out.error().message == "the remote back end renders images only");
  cancel_token cancelled;
  cancelled.cancel();
  BOOST_TEST(code_of(backend.render(small_request(), {}, cancelled)) == "cancelled");
  BOOST_TEST(fake.requests().empty());
}

BOOST_AUTO_TEST_SUITE_END()
