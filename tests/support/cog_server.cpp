#include "cog_server.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <variant>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/time_format.hpp"
#include "tests/support/cog_schema.hpp"
#include "tests/support/cog_webhook_sender.hpp"
#include "tests/support/fake_media.hpp"
#include "tests/support/loopback_listener.hpp"
#include "tests/support/one_request_http.hpp"

namespace svc::test {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace json = boost::json;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;

// COG_THROTTLE_RESPONSE_INTERVAL's default.
constexpr auto logs_interval = std::chrono::milliseconds{500};
constexpr const char* oom_error = "CUDA out of memory. Tried to allocate 20.00 MiB";
constexpr const char* python_busy = R"({"detail":"Already running a prediction"})";
constexpr const char* coglet_busy = R"({"error":"At capacity - all prediction slots busy","status":"failed"})";
constexpr const char* coglet_not_ready =
  R"({"error":"Setup has not finished yet. Wait until it has finished, or GET /health-check for status.","status":"failed"})";
constexpr const char* id_mismatch =
  R"({"detail":[{"loc":["body","id"],"msg":"prediction ID must match the ID supplied in the URL","type":"value_error"}]})";

std::string now_text() { return core::format_iso8601(std::chrono::system_clock::now()); }

std::string clock_text(steady::duration d) {
  auto s = std::max<long long>(0, std::chrono::duration_cast<std::chrono::seconds>(d).count());
  char out[16];
  std::snprintf(out, sizeof out, "%02lld:%02lld", s / 60, s % 60);
  return out;
}

// A tqdm bar as a diffusers pipeline prints it to stderr, which cog keeps in `logs`:
// "  3%|▎         | 1/30 [00:00<00:02]".
std::string progress_line(int k, int n, steady::duration elapsed, steady::duration left) {
  static const char* const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  constexpr int width = 10;
  const int filled = k * width * 8 / n;
  std::string bar;
  for (int i = 0; i < filled / 8; ++i)
    bar += "█";
  bar += eighths[filled % 8];
  bar.append(static_cast<std::size_t>(width - filled / 8 - (filled % 8 ? 1 : 0)), ' ');
  char percent[8];
  std::snprintf(percent, sizeof percent, "%3d%%", k * 100 / n);
  return std::string{percent} + "|" + bar + "| " + std::to_string(k) + "/" + std::to_string(n) + " [" +
         clock_text(elapsed) + "<" + clock_text(left) + "]\n";
}

// coglet's form of a new id (its routes.rs): the wall clock in hex nanoseconds.
std::string new_prediction_id() {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  char out[32];
  std::snprintf(out, sizeof out, "pred_%llx", static_cast<unsigned long long>(ns.count()));
  return out;
}

std::string string_field(const json::object& o, const char* key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string{v->as_string()} : std::string{};
}

} // namespace

struct cog_server::impl {
  struct prediction {
    std::uint64_t serial = 0;
    std::string id;
    json::object input; // checked, with defaults
    std::string webhook;
    std::set<std::string> events;
    std::string created_at, started_at, completed_at;
    steady::time_point started;
    int steps = 1;
    std::int64_t seed = 0;
    std::string status = "processing", error, logs;
    json::value output; // while processing the outputs so far (an array); then what the model returned
    double predict_time = 0;
    std::optional<steady::time_point> logs_sent; // the last logs webhook, for the throttle
    std::shared_ptr<tcp::socket> sync;           // the client waiting on a sync create
  };

  cog_options options;
  mutable std::mutex mutex; // everything below: the io thread writes, tests read
  cog_faults faults;
  std::vector<cog_request> requests;
  std::vector<json::object> predictions;
  std::vector<double> render_seconds; // of each ended run: its create to its completed webhook
  std::vector<cog_webhook> webhooks;
  std::optional<prediction> run;
  std::uint64_t serial = 0; // numbers runs, so a tick or a disconnect of an ended run is ignored
  steady::time_point setup_started = steady::now();
  std::chrono::system_clock::time_point setup_started_wall = std::chrono::system_clock::now();
  std::map<std::string, std::pair<std::string, std::string>> files; // served outputs: name -> {type, bytes}

  loopback_listener listener; // before the timer and the sender, which run on its io_context
  net::steady_timer tick;
  cog_webhook_sender sender;

  explicit impl(cog_options o) : options(std::move(o)), tick(listener.ioc), sender(listener.ioc) {}

  bool coglet() const { return options.profile == cog_profile::coglet; }
  bool starting() const { return steady::now() < setup_started + options.setup_time; }
  // coglet learns the schema from the worker's setup, so it has none before setup succeeds.
  bool schema_known() const { return !faults.setup_failed && !starting(); }
  bool ready() const { return schema_known() && !faults.defunct; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(listener.port); }

  // --- bodies
  std::string health_status() const {
    if (faults.setup_failed)
      return "SETUP_FAILED";
    if (faults.defunct)
      return "DEFUNCT";
    if (starting())
      return "STARTING";
    if (run || faults.busy)
      return "BUSY";
    // coglet runs the model's own healthcheck only when idle.
    return faults.user_healthcheck_error.empty() ? "READY" : "UNHEALTHY";
  }
  json::object health() const {
    std::string phase = faults.setup_failed ? "failed" : starting() ? "starting" : "succeeded";
    json::object setup{{"started_at", core::format_iso8601(setup_started_wall)}, {"status", phase}};
    if (phase != "starting")
      setup["completed_at"] = core::format_iso8601(setup_started_wall + options.setup_time);
    else if (!coglet()) // the Python server lists every field of its setup result
      setup["completed_at"] = nullptr;
    setup["logs"] = faults.setup_failed ? "Traceback (most recent call last):\nRuntimeError: weights not found\n" : "";
    auto status = health_status();
    json::object body{{"status", status}, {"setup", std::move(setup)}};
    if (coglet())
      body["version"] = {{"coglet", "0.17.0"}, {"python_sdk", "0.17.0"}, {"python", "3.12.7"}};
    if (status == "UNHEALTHY")
      body["user_healthcheck_error"] = faults.user_healthcheck_error;
    return body;
  }
  json::object discovery() const {
    return {{"cog_version", coglet() ? "0.17.0" : "0.16.12"},
            {"docs_url", "/docs"},
            {"openapi_url", "/openapi.json"},
            {"shutdown_url", "/shutdown"},
            {"healthcheck_url", "/health-check"},
            {"predictions_url", "/predictions"},
            {"predictions_idempotent_url", "/predictions/{prediction_id}"},
            {"predictions_cancel_url", "/predictions/{prediction_id}/cancel"}};
  }
  static json::object metrics(const prediction& p) {
    if (p.status == "processing")
      return {};
    return {{"predict_time", p.predict_time}};
  }
  static json::object coglet_state(const prediction& p) {
    json::object o{{"id", p.id}, {"status", p.status}, {"logs", p.logs}};
    if (!p.output.is_null())
      o["output"] = p.output;
    if (!p.error.empty())
      o["error"] = p.error;
    o["metrics"] = metrics(p);
    return o;
  }
  static json::object python_state(const prediction& p) {
    auto or_null = [](const std::string& s) { return s.empty() ? json::value() : json::value(s); };
    return {{"input", p.input},       {"output", p.output},         {"id", p.id},
            {"version", nullptr},     {"created_at", p.created_at}, {"started_at", p.started_at},
            {"completed_at", or_null(p.completed_at)}, {"logs", p.logs}, {"error", or_null(p.error)},
            {"status", p.status},     {"metrics", metrics(p)}};
  }
  json::object webhook_payload(const prediction& p) const {
    if (coglet())
      return coglet_state(p);
    json::object set; // the Python server sends only the fields that have a value
    for (auto& [k, v] : python_state(p))
      if (!v.is_null())
        set[k] = v;
    return set;
  }
  json::object sync_answer(const prediction& p) const {
    if (!coglet())
      return python_state(p);
    auto o = coglet_state(p);
    if (p.status != "succeeded") // coglet's failed and canceled answers carry no logs
      o["logs"] = "";
    return o;
  }

  // --- webhooks (io thread, under the mutex)
  void notify(const prediction& p, const std::string& event) {
    if (p.webhook.empty() || !p.events.count(event))
      return;
    cog_webhook_post post{p.webhook, json::serialize(webhook_payload(p)),
                          options.webhook_token.empty() ? std::string{} : "Bearer " + options.webhook_token,
                          coglet() ? "coglet/0.17.0" : "cog-worker/0.16.12", event == "completed"};
    sender.send(p.serial, std::move(post), [this, id = p.id, event, status = p.status](int answer) {
      std::lock_guard lock(mutex);
      webhooks.push_back({id, event, status, answer});
    });
  }
  void log(const std::string& text) {
    run->logs += text;
    auto now = steady::now();
    if (run->logs_sent && now - *run->logs_sent < logs_interval)
      return;
    run->logs_sent = now;
    notify(*run, "logs");
  }

  // --- runs (io thread, under the mutex)
  void start(const std::shared_ptr<tcp::socket>& socket, json::object body, std::string id, json::object input,
             bool async) {
    prediction p;
    p.serial = ++serial;
    p.id = std::move(id);
    p.webhook = string_field(body, "webhook");
    if (auto* filter = body.if_contains("webhook_events_filter"); filter && filter->is_array()) {
      for (auto& e : filter->as_array())
        if (e.is_string())
          p.events.insert(std::string{e.as_string()});
    } else {
      p.events = {"start", "output", "logs", "completed"};
    }
    p.started_at = now_text();
    p.created_at = string_field(body, "created_at").empty() ? p.started_at : string_field(body, "created_at");
    p.started = steady::now();
    p.steps = static_cast<int>(input.at("num_inference_steps").as_int64());
    auto* seed = input.if_contains("seed");
    p.seed = seed ? seed->as_int64() : static_cast<std::int64_t>(std::random_device{}() % 100000);
    p.input = std::move(input);
    predictions.push_back(std::move(body));
    run = std::move(p);
    notify(*run, "start");
    log("Using seed: " + std::to_string(run->seed) + "\n");
    if (async) {
      respond(socket, 202, json::serialize(coglet() ? json::object{{"id", run->id}, {"status", "starting"}}
                                                    : python_state(*run)));
    } else {
      run->sync = socket;
      if (coglet()) // a sync client that goes away cancels its prediction in coglet; Python's is unknown
        watch_disconnect(socket, run->serial);
    }
    arm(1);
  }
  void arm(int k) {
    tick.expires_at(run->started + options.render_time * k / run->steps);
    tick.async_wait([this, k, s = run->serial](error_code ec) {
      std::lock_guard lock(mutex);
      if (!ec && run && run->serial == s)
        step(k);
    });
  }
  void step(int k) {
    auto elapsed = steady::now() - run->started;
    log(progress_line(k, run->steps, elapsed, options.render_time - elapsed));
    if (faults.fail_prediction) {
      run->logs += "Traceback (most recent call last):\ntorch.OutOfMemoryError: " + std::string{oom_error} + "\n";
      return end("failed", oom_error);
    }
    if (faults.hang && k + 1 >= run->steps) // stuck before its last step, until cancelled
      return;
    if (k < run->steps)
      return arm(k + 1);
    succeed();
  }
  json::value publish(std::string bytes, const std::string& ext, const std::string& type) {
    if (!options.url_outputs)
      return json::value("data:" + type + ";base64," + core::base64_encode(bytes));
    auto name = "out-" + std::to_string(files.size() + 1) + ext;
    files[name] = {type, std::move(bytes)};
    return json::value(url() + "/outputs/" + name);
  }
  void succeed() {
    const auto& in = run->input;
    auto number = [&](const char* key) { return static_cast<int>(in.at(key).as_int64()); };
    bool image = options.kind == cog_model_kind::image;
    json::array outputs;
    bool webm = !image && options.webm_video;
    int frames = image ? 0 : std::max(1, number("num_frames") - faults.missing_frames);
    for (int i = 0; i < (image ? number("num_outputs") : 1); ++i) {
      auto bytes = image ? fake_png(number("width"), number("height"), static_cast<std::uint64_t>(run->seed + i))
                   : webm ? fake_webm(number("width"), number("height"), frames, number("fps"))
                          : fake_mp4(number("width"), number("height"), frames, number("fps"));
      if (i == 0 && faults.oversized_output)
        bytes.resize(faults.oversized_output, '\0');
      outputs.push_back(publish(std::move(bytes), image ? ".png" : webm ? ".webm" : ".mp4",
                                image ? "image/png" : webm ? "video/webm" : "video/mp4"));
      run->output = outputs;
      if (coglet()) // the Python server sends output webhooks only for iterator outputs
        notify(*run, "output");
    }
    if (!image) // a single Path: one value once done, though the output webhooks carried an array
      run->output = outputs.front();
    end("succeeded", "");
  }
  void end(const std::string& status, const std::string& error) {
    auto& p = *run;
    p.status = status;
    p.error = error;
    p.completed_at = now_text();
    p.predict_time = std::chrono::duration<double>(steady::now() - p.started).count();
    render_seconds.push_back(p.predict_time);
    notify(p, "completed");
    if (p.sync)
      respond(p.sync, 200, json::serialize(sync_answer(p)));
    run.reset();
  }
  void watch_disconnect(const std::shared_ptr<tcp::socket>& socket, std::uint64_t s) {
    auto byte = std::make_shared<char>();
    socket->async_read_some(net::buffer(byte.get(), 1), [this, socket, byte, s](error_code ec, std::size_t) {
      std::lock_guard lock(mutex);
      if (ec && run && run->serial == s && run->sync == socket) {
        run->sync.reset();
        end("canceled", "");
      }
    });
  }

  // --- HTTP (io thread)
  void accept() {
    // Init images come as data URIs (Cog) or multipart uploads (ComfyUI).
    serve_one_request_each(listener, 100u << 20,
                           [this](const std::shared_ptr<tcp::socket>& socket, one_request req) { handle(socket, std::move(req)); });
  }
  void respond(const std::shared_ptr<tcp::socket>& socket, int status, std::string body,
               std::string_view type = "application/json") {
    respond_and_close(socket, status, std::move(body), type);
  }
  void handle(const std::shared_ptr<tcp::socket>& socket, const bhttp::request<bhttp::string_body>& req) {
    std::string target{req.target()};
    std::string path = target.substr(0, target.find('?'));
    std::lock_guard lock(mutex);
    requests.push_back({std::string{req.method_string()}, path, req.body(), std::string{req["Prefer"]}});
    bool get = req.method() == bhttp::verb::get, post = req.method() == bhttp::verb::post;
    if (get && path == "/")
      return respond(socket, 200, json::serialize(discovery()));
    if (get && path == "/health-check")
      return respond(socket, 200, json::serialize(health()));
    if (get && path == "/openapi.json") {
      if (coglet() && !schema_known())
        return respond(socket, 503, R"({"error":"OpenAPI schema not available"})");
      return respond(socket, 200, json::serialize(cog_openapi(options.kind)));
    }
    if (post && path == "/predictions")
      return create(socket, req, std::nullopt);
    const std::string prefix = "/predictions/";
    if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0) {
      auto rest = path.substr(prefix.size());
      auto slash = rest.find('/');
      if (req.method() == bhttp::verb::put && slash == std::string::npos)
        return create(socket, req, rest);
      if (post && slash != std::string::npos && rest.substr(slash) == "/cancel")
        return cancel(socket, rest.substr(0, slash));
    }
    if (post && path == "/shutdown")
      return respond(socket, 200, "{}");
    if (get && path.rfind("/outputs/", 0) == 0)
      if (auto it = files.find(path.substr(9)); it != files.end())
        return respond(socket, 200, it->second.second, it->second.first);
    // Neither server has GET /predictions/{id}; an unknown route is axum's bare 404 or FastAPI's.
    respond(socket, 404, coglet() ? "" : R"({"detail":"Not Found"})");
  }
  void create(const std::shared_ptr<tcp::socket>& socket, const bhttp::request<bhttp::string_body>& req,
              const std::optional<std::string>& path_id) {
    json::value parsed = json::object{};
    if (!req.body().empty()) {
      error_code ec;
      parsed = json::parse(req.body(), ec);
      if (ec || !parsed.is_object())
        return respond(socket, 422, R"({"detail":[{"loc":["body"],"msg":"value is not a valid dict","type":"type_error.dict"}]})");
    }
    auto& body = parsed.as_object();
    auto id = string_field(body, "id");
    if (path_id) {
      if (!id.empty() && id != *path_id)
        return respond(socket, 422, id_mismatch);
      id = *path_id;
      if (run && run->id == id) { // the same PUT again while it runs: its state, not a second run
        auto state = coglet() ? coglet_state(*run) : python_state(*run);
        state["input"] = run->input;
        return respond(socket, 202, json::serialize(state));
      }
    }
    std::optional<json::object> input;
    if (!coglet() || schema_known()) { // FastAPI checks the body before its handler runs
      auto* given = body.if_contains("input");
      auto checked = cog_check_input(options.kind, given ? *given : json::value());
      if (auto* errors = std::get_if<json::array>(&checked))
        return respond(socket, 422, json::serialize(json::object{{"detail", std::move(*errors)}}));
      input = std::get<json::object>(std::move(checked));
    }
    if (!ready())
      return respond(socket, coglet() ? 503 : 409, coglet() ? coglet_not_ready : python_busy);
    if (run || faults.busy)
      return respond(socket, 409, coglet() ? coglet_busy : python_busy);
    start(socket, std::move(body), id.empty() ? new_prediction_id() : id, std::move(*input),
          req["Prefer"] == "respond-async");
  }
  void cancel(const std::shared_ptr<tcp::socket>& socket, const std::string& id) {
    if (!run || run->id != id)
      return respond(socket, 404, "{}");
    respond(socket, 200, "{}");
    end("canceled", "");
  }
};

cog_server::cog_server(cog_options options) : impl_(std::make_unique<impl>(std::move(options))) {
  impl_->accept();
  impl_->listener.start();
}

cog_server::~cog_server() {
  impl_->listener.stop([this] {
    std::lock_guard lock(impl_->mutex);
    impl_->tick.cancel();
    impl_->sender.stop();
    if (impl_->run && impl_->run->sync) {
      error_code ignored;
      impl_->run->sync->close(ignored);
    }
  });
}

std::string cog_server::url() const { return impl_->url(); }

void cog_server::set_faults(cog_faults f) {
  std::lock_guard lock(impl_->mutex);
  impl_->faults = std::move(f);
}

void cog_server::restart() {
  std::lock_guard lock(impl_->mutex);
  // The container takes its unsent webhooks and the waiting sync client's connection with it. Both
  // belong to the io thread; the runs started after this call are not its to touch.
  std::shared_ptr<tcp::socket> sync = impl_->run ? impl_->run->sync : nullptr;
  net::post(impl_->listener.ioc, [this, sync, last = impl_->serial] {
    impl_->sender.abandon(last);
    if (sync) {
      error_code ignored;
      sync->close(ignored);
    }
  });
  // Its pending tick finds no run with its serial; cancelling the timer here, off the io thread, would race.
  impl_->run.reset();
  impl_->setup_started = steady::now();
  impl_->setup_started_wall = std::chrono::system_clock::now();
}

std::vector<cog_request> cog_server::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

std::vector<json::object> cog_server::predictions() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->predictions;
}

std::size_t cog_server::count(const std::string& method, const std::string& path) const {
  bool prefix = !path.empty() && path.back() == '*';
  auto stem = prefix ? path.substr(0, path.size() - 1) : path;
  std::lock_guard lock(impl_->mutex);
  return std::count_if(impl_->requests.begin(), impl_->requests.end(), [&](const cog_request& r) {
    return r.method == method && (prefix ? r.path.compare(0, stem.size(), stem) == 0 : r.path == path);
  });
}

std::string cog_server::running() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->run ? impl_->run->id : std::string{};
}

std::vector<double> cog_server::render_seconds() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->render_seconds;
}

std::vector<cog_webhook> cog_server::webhooks() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->webhooks;
}

} // namespace svc::test
