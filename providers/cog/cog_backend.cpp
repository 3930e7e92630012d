#include "providers/cog/cog_backend.hpp"

#include <algorithm>
#include <optional>
#include <variant>

#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/duration.hpp"
#include "core/log.hpp"
#include "providers/cog/cog_protocol.hpp"
#include "providers/engine_calls.hpp"
#include "providers/engine_output.hpp"
#include "providers/video_probe.hpp"
#include "schema/image_sniff.hpp"

namespace svc::providers {
namespace {

namespace bhttp = boost::beast::http;
namespace json = boost::json;
using steady = std::chrono::steady_clock;

// How long one wait for a webhook lasts before the render looks at its
// cancel token, its deadline and the engine's silence again.
constexpr std::chrono::milliseconds cog_tick{50};

// Closes the inbox of a prediction when its render ends, however it ends.
struct open_inbox {
  open_inbox(core::callback_inbox& inbox, std::string id) : inbox(inbox), id(std::move(id)) { inbox.open(this->id); }
  ~open_inbox() { inbox.close(id); }
  open_inbox(const open_inbox&) = delete;
  open_inbox& operator=(const open_inbox&) = delete;
  core::callback_inbox& inbox;
  std::string id;
};

std::string answer_text(const exchange_answer& a) {
  return a.fault == exchange_fault::none ? "HTTP " + std::to_string(a.status) : a.detail;
}

} // namespace

// One render: one prediction on one container, on its own io_context.
class cog_render {
public:
  cog_render(cog_backend& b, const render_request& req, const progress_fn& progress, const cancel_token& cancel)
      : b_(b), req_(req), progress_(progress), cancel_(cancel),
        calls_(b.url_, b.engine_.headers, req.correlation, b.options_.connect_timeout, b.options_.timeout / 10,
               steady::now() + b.options_.timeout),
        id_(req.job_id.empty() ? "svc-" + core::random_hex(12) : req.job_id) {}

  render_outcome run();

private:
  std::variant<std::optional<cog_state>, provider_error> submit(const json::object& input);
  std::variant<cog_state, provider_error> follow();
  render_outcome collect(const cog_state& s);
  std::optional<provider_error> take_output(const std::string& uri, render_result& result);
  void cancel_prediction();
  void report(double p) {
    p = std::clamp(p, 0.0, 0.99);
    if (progress_ && p > shown_) {
      shown_ = p;
      progress_(p);
    }
  }

  cog_backend& b_;
  const render_request& req_;
  const progress_fn& progress_;
  const cancel_token& cancel_;
  engine_calls calls_;
  std::string id_;
  double shown_ = 0;
};

// PUT with the job's id, async; 409 (busy) and 503 (setup) are retried like
// a refused connection. A 200 is the Python server answering in sync mode
// despite the header, or a run that already ended: its state is the result.
std::variant<std::optional<cog_state>, provider_error> cog_render::submit(const json::object& input) {
  auto body = cog_prediction_body(id_, input, b_.callbacks_.cog_webhook(id_));
  auto backoff = b_.options_.backoff;
  for (int attempt = 0;; ++attempt) {
    // The Python server's 202 echoes the input, an init image's data: URI with it.
    auto a = calls_.call(bhttp::verb::put, "/predictions/" + id_, body, engine_small_answer + 2 * body.size(),
                         "application/json", {{"Prefer", "respond-async"}});
    bool none = a.fault == exchange_fault::none;
    if (none && (a.status == 201 || a.status == 202))
      return std::optional<cog_state>{};
    if (none && a.status == 200) {
      auto s = cog_parse_state(a.body);
      if (s && s->terminal())
        return s;
      return std::optional<cog_state>{};
    }
    if (none && a.status == 422)
      return provider_error::failed("the model refused the input: " + cog_refusal(a.status, a.body));
    bool transient = a.fault == exchange_fault::connect_failed || (none && (a.status == 409 || a.status == 503 ||
                                                                            a.status == 502 || a.status == 504));
    if (!transient || attempt >= b_.options_.retries) {
      auto why = none ? cog_refusal(a.status, a.body) : a.detail;
      if (none && a.status == 409)
        return provider_error::unavailable("the engine stayed busy: " + why);
      return provider_error::unavailable("creating the prediction failed: " + why);
    }
    if (cancel_.wait_for(backoff))
      return provider_error::cancelled();
    backoff *= 2;
  }
}

// Waits for the terminal webhook. When none has come for a quiet spell the
// container is asked how it is: BUSY means still running; READY (one slot)
// or STARTING means our run is gone (it ended unheard, or the container
// restarted), and a PUT would only start another.
std::variant<cog_state, provider_error> cog_render::follow() {
  auto& inbox = *b_.callbacks_.inbox;
  auto heard = steady::now();
  // The container turns READY as the run ends and posts `completed` after
  // (a large output takes a while): idle is believed only once it lasted
  // this long with no word.
  const auto idle_grace = 10 * b_.options_.silence;
  std::optional<steady::time_point> idle_since;
  for (;;) {
    if (cancel_.cancelled())
      return provider_error::cancelled();
    if (steady::now() >= calls_.deadline())
      return provider_error::timeout("the engine did not finish within " + core::format_duration(b_.options_.timeout));
    if (auto body = inbox.take(id_, cog_tick)) {
      auto s = cog_parse_state(*body);
      if (!s)
        continue;
      heard = steady::now();
      if (s->terminal())
        return *s;
      if (auto p = cog_log_progress(s->logs))
        report(*p);
      continue;
    }
    if (steady::now() - heard < b_.options_.silence)
      continue;
    heard = steady::now();
    auto h = calls_.call(bhttp::verb::get, "/health-check");
    if (h.fault == exchange_fault::timed_out)
      return provider_error::timeout("the engine did not answer within the job's deadline");
    if (h.fault != exchange_fault::none)
      return provider_error::unavailable("the engine stopped answering: " + h.detail);
    auto health = cog_health(h.body);
    if (health == "BUSY") {
      idle_since.reset();
      continue;
    }
    if (health == "SETUP_FAILED" || health == "DEFUNCT" || health == "UNHEALTHY")
      return provider_error::unavailable("the engine is " + health);
    if (health == "STARTING" || health == "UNKNOWN")
      return provider_error::unavailable("the engine lost the prediction: it restarted");
    if (health == "READY" && b_.engine_.slots == 1) {
      if (!idle_since)
        idle_since = steady::now();
      else if (steady::now() - *idle_since >= idle_grace)
        return provider_error::unavailable("the engine lost the prediction: it is idle and never reported its end");
    }
  }
}

std::optional<provider_error> cog_render::take_output(const std::string& uri, render_result& result) {
  auto limit = output_limit(req_);
  std::string bytes, error;
  if (uri.rfind("data:", 0) == 0) {
    auto d = decode_data_uri(uri, limit, error);
    if (!d)
      return provider_error::failed("the engine's output is " + error);
    bytes = std::move(d->bytes);
  } else {
    auto where = parse_remote_url(uri.substr(0, uri.find('?')), error);
    if (!where || where->host != b_.url_.host)
      return provider_error::failed("the engine's output URL is not an http URL on the engine's host");
    auto a = calls_.fetch(*where, where->base_path.empty() ? "/" : where->base_path, limit);
    if (a.fault == exchange_fault::too_large)
      return provider_error::failed("the engine's output is larger than the asked size can be");
    if (a.fault != exchange_fault::none || a.status != 200)
      return provider_error::unavailable("fetching the engine's output failed: " + answer_text(a));
    bytes = std::move(a.body);
  }
  if (req_.is_video()) {
    auto facts = probe_video_bytes(bytes, error);
    if (!facts)
      return provider_error::failed("the engine's video is unreadable: " + error);
    auto& setup = b_.setups_.at(req_.model);
    auto mismatch = video_mismatch(*facts, req_.width, req_.height, req_.duration_seconds * req_.fps,
                                   req_.duration_seconds, setup.frame_tolerance, setup.duration_tolerance);
    if (!mismatch.empty())
      return provider_error::failed(mismatch);
    if (!req_.video_file || !req_.video_file->write_at(0, bytes.data(), bytes.size(), error))
      return provider_error::failed("storing the engine's video failed: " + error);
    result.in_video_file = true;
    result.content_type = facts->content_type;
    result.width = facts->width;
    result.height = facts->height;
    return std::nullopt;
  }
  auto sniffed = schema::sniff_image(bytes);
  if (!sniffed || sniffed->width != req_.width || sniffed->height != req_.height)
    return provider_error::failed("the engine's output is not a " + std::to_string(req_.width) + "x" +
                                  std::to_string(req_.height) + " image");
  if (!result.outputs.empty() && result.content_type != sniffed->content_type)
    return provider_error::failed("the engine's outputs differ in type");
  result.content_type = std::string{sniffed->content_type};
  result.width = sniffed->width;
  result.height = sniffed->height;
  result.outputs.push_back(std::move(bytes));
  return std::nullopt;
}

render_outcome cog_render::collect(const cog_state& s) {
  if (s.status == "failed")
    return provider_error::failed("the model failed: " + (s.error.empty() ? std::string{"no error given"} : s.error));
  if (s.status == "canceled")
    return provider_error::failed("the engine canceled the prediction");
  auto uris = cog_output_uris(s.output);
  std::size_t wanted = req_.is_video() ? 1 : static_cast<std::size_t>(req_.num_outputs);
  if (uris.size() != wanted)
    return provider_error::failed("the engine gave " + std::to_string(uris.size()) + " outputs, not " +
                                  std::to_string(wanted));
  render_result result;
  for (auto& uri : uris)
    if (auto e = take_output(uri, result))
      return *e;
  return result;
}

// Cancels on the container, then waits briefly for its `canceled` webhook
// (a 404 means it had ended already).
void cog_render::cancel_prediction() {
  calls_.set_deadline(steady::now() + b_.options_.connect_timeout); // the job's own deadline may be gone
  auto a = calls_.call(bhttp::verb::post, "/predictions/" + id_ + "/cancel", "{}");
  if (a.fault != exchange_fault::none || a.status != 200)
    return;
  while (steady::now() < calls_.deadline())
    if (auto body = b_.callbacks_.inbox->take(id_, cog_tick))
      if (auto s = cog_parse_state(*body); s && s->terminal())
        return;
}

render_outcome cog_render::run() {
  auto setup = b_.setups_.find(req_.model);
  if (setup == b_.setups_.end())
    return provider_error::failed("the engine serves no model " + req_.model);
  if (!b_.callbacks_.inbox)
    return provider_error::failed("svcd has no engine-callback listener for Cog's webhooks");
  std::string why;
  if (!calls_.resolve(why))
    return provider_error::unavailable("cannot reach the engine: " + why);
  cog_inputs in{&req_, {}, {}};
  for (auto& l : req_.loras) {
    auto file = b_.lora_files_.find(l.slug);
    if (file == b_.lora_files_.end())
      return provider_error::failed("the LoRA " + l.slug + " has no file on this engine");
    in.lora_files.push_back(file->second);
  }
  if (!req_.init_image.empty()) {
    auto sniffed = schema::sniff_image(req_.init_image);
    if (!sniffed)
      return provider_error::failed("the init image is no PNG, JPEG or WebP");
    in.init_image_uri = "data:" + std::string{sniffed->content_type} + ";base64," + core::base64_encode(req_.init_image);
  }
  if (progress_)
    progress_(0.0);
  open_inbox inbox{*b_.callbacks_.inbox, id_};
  // Every failure from here on cancels: a create whose answer was lost may
  // have started the run, and a run given up on must not go on unwatched
  // (an id that is not running is only a 404).
  auto submitted = submit(cog_input(setup->second, in));
  if (auto* e = std::get_if<provider_error>(&submitted)) {
    cancel_prediction();
    return *e;
  }
  auto& early = std::get<0>(submitted);
  auto end = early ? std::variant<cog_state, provider_error>{*early} : follow();
  if (auto* e = std::get_if<provider_error>(&end)) {
    cancel_prediction();
    return *e;
  }
  auto outcome = collect(std::get<cog_state>(end));
  if (outcome.ok() && progress_)
    progress_(1.0);
  return outcome;
}

cog_backend::cog_backend(engine_spec engine, remote_url url, std::map<std::string, model_setup> setups,
                         std::map<std::string, std::string> lora_files, cog_options options,
                         engine_callbacks callbacks)
    : engine_(std::move(engine)), url_(std::move(url)), setups_(std::move(setups)), lora_files_(std::move(lora_files)),
      options_(options), callbacks_(std::move(callbacks)) {}

std::string cog_backend::check_inputs() {
  std::lock_guard lock{check_mutex_};
  if (checked_ || steady::now() - last_check_ < engine_recheck_interval)
    return check_failure_;
  last_check_ = steady::now();
  engine_calls calls{url_, engine_.headers, {}, options_.connect_timeout, options_.connect_timeout,
                     steady::now() + 2 * options_.connect_timeout};
  std::string why;
  auto a = calls.resolve(why) ? calls.call(bhttp::verb::get, "/openapi.json", {}, 16 * engine_small_answer)
                              : exchange_answer{exchange_fault::connect_failed, 0, {}, why};
  // coglet answers 503 until its schema exists (still setting up).
  if (a.fault != exchange_fault::none || a.status != 200) {
    core::log_warn("cog", engine_.name + ": /openapi.json unavailable (" + answer_text(a) +
                            "); its input maps are checked at its first render");
    return {};
  }
  for (auto& [model, setup] : setups_)
    if (auto miss = cog_check_inputs(a.body, setup); !miss.empty() && check_failure_.empty())
      check_failure_ = "engine " + engine_.name + ", model " + model + ": " + miss;
  checked_ = true;
  return check_failure_;
}

render_outcome cog_backend::render(const render_request& req, const progress_fn& progress,
                                   const cancel_token& cancel) {
  if (auto failure = check_inputs(); !failure.empty())
    return provider_error::failed(failure);
  auto outcome = cog_render{*this, req, progress, cancel}.run();
  if (!outcome.ok() && outcome.error().code != "cancelled")
    core::log_warn("cog", engine_.name + ": render failed (" + outcome.error().code + "): " + outcome.error().message);
  return outcome;
}

std::string cog_backend::probe(std::chrono::milliseconds timeout) {
  std::string body;
  if (auto failed = probe_get(url_, engine_.headers, "/health-check", timeout, &body); !failed.empty())
    return failed;
  auto health = cog_health(body);
  if (health == "READY" || health == "BUSY")
    return {};
  return "the container's /health-check says " + (health.empty() ? std::string{"nothing readable"} : health);
}

} // namespace svc::providers
