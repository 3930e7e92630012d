#include "providers/comfyui/comfyui_backend.hpp"

#include <algorithm>
#include <optional>

#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/duration.hpp"
#include "core/log.hpp"
#include "providers/comfyui/comfy_protocol.hpp"
#include "providers/comfyui/comfy_socket.hpp"
#include "providers/engine_calls.hpp"
#include "providers/engine_output.hpp"
#include "providers/remote/http_exchange.hpp"
#include "providers/video_probe.hpp"
#include "schema/image_sniff.hpp"

namespace svc::providers {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace json = boost::json;
using steady = std::chrono::steady_clock;

// How often the render's loop wakes to look at its cancel token and deadline.
constexpr std::chrono::milliseconds comfy_tick{50};
// /object_info of a big install is several MB.
constexpr std::size_t comfy_object_info_answer = 64u << 20;

// A canonical lowercase UUID v4, as C2 requires of `prompt_id`.
std::string uuid4() {
  auto b = core::random_bytes(16);
  b[6] = static_cast<char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  auto hex = core::to_hex(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

// One id per worker thread: its socket gets only its own prompts' events.
const std::string& worker_client_id() {
  thread_local const std::string id = "svc-" + uuid4();
  return id;
}

render_mode mode_of(const render_request& req) {
  bool init = !req.init_image.empty();
  if (req.is_video())
    return init ? render_mode::image_to_video : render_mode::video;
  return init ? render_mode::image_to_image : render_mode::text_to_image;
}

} // namespace

// One render on one io_context: every call runs to its end with the socket
// gathering frames meanwhile, so the steps read in order.
class comfy_render {
public:
  comfy_render(comfyui_backend& b, const render_request& req, const progress_fn& progress, const cancel_token& cancel)
      : b_(b), req_(req), progress_(progress), cancel_(cancel),
        calls_(b.url_, b.engine_.headers, req.correlation, b.options_.connect_timeout, b.options_.timeout / 10,
               steady::now() + b.options_.timeout) {}

  render_outcome run();

private:
  exchange_answer call(bhttp::verb method, const std::string& target, std::string body = {},
                       std::size_t limit = engine_small_answer, std::string content_type = "application/json") {
    return calls_.call(method, target, std::move(body), limit, std::move(content_type));
  }
  // Runs the io_context for about one tick, or until a frame arrives: the
  // end of a prompt is seen when its event comes.
  void wait_a_tick() {
    calls_.pause_until(comfy_tick, [this] { return socket_ && !socket_->frames().empty(); });
  }

  void report(double p) {
    p = std::clamp(p, 0.0, 0.99);
    if (progress_ && p > shown_) {
      shown_ = p;
      progress_(p);
    }
  }

  std::optional<provider_error> upload_init_image(std::string& name);
  std::optional<provider_error> submit(const json::object& prompt);
  std::variant<comfy_history, provider_error> follow();
  render_outcome collect(const comfy_history& h, const model_setup& setup);
  void cancel_prompt();
  void forget_prompt();

  comfyui_backend& b_;
  const render_request& req_;
  const progress_fn& progress_;
  const cancel_token& cancel_;
  engine_calls calls_;
  std::unique_ptr<comfy_socket> socket_;
  std::string prompt_id_ = uuid4();
  double shown_ = 0;
};

std::optional<provider_error> comfy_render::upload_init_image(std::string& name) {
  auto boundary = "svc" + core::to_hex(reinterpret_cast<const uint8_t*>(core::random_bytes(12).data()), 12);
  // Per job: an identical file of another job would be answered with the other's name.
  auto file = "svc-" + prompt_id_ + ".png";
  auto a = call(bhttp::verb::post, "/upload/image", comfy_upload_body(boundary, file, "svc", req_.init_image),
                engine_small_answer, "multipart/form-data; boundary=" + boundary);
  if (a.fault != exchange_fault::none)
    return provider_error::unavailable("uploading the init image failed: " + a.detail);
  auto uploaded = a.status == 200 ? comfy_uploaded_name(a.body) : std::nullopt;
  if (!uploaded)
    return provider_error::failed("the engine refused the init image (HTTP " + std::to_string(a.status) + ")");
  name = *uploaded;
  return std::nullopt;
}

std::optional<provider_error> comfy_render::submit(const json::object& prompt) {
  auto body = comfy_prompt_body(prompt, worker_client_id(), prompt_id_);
  auto backoff = b_.options_.backoff;
  for (int attempt = 0;; ++attempt) {
    auto a = call(bhttp::verb::post, "/prompt", body);
    bool transient = a.fault == exchange_fault::connect_failed ||
                     (a.fault == exchange_fault::none && (a.status == 502 || a.status == 503 || a.status == 504));
    if (a.fault == exchange_fault::none && !transient) {
      if (auto refusal = comfy_submit_refusal(a.status, a.body)) {
        // A 200 with node errors still runs the outputs that validated (brief 1.3).
        if (a.status == 200)
          cancel_prompt();
        return provider_error::failed(*refusal);
      }
      // Servers before 2025-07 ignore the client's prompt_id and make their own.
      if (auto id = comfy_accepted_id(a.body); !id.empty())
        prompt_id_ = id;
      return std::nullopt;
    }
    if (!transient || attempt >= b_.options_.retries)
      return provider_error::unavailable("submitting to the engine failed: " +
                                         (a.fault == exchange_fault::none ? "HTTP " + std::to_string(a.status) : a.detail));
    if (cancel_.wait_for(backoff))
      return provider_error::cancelled();
    backoff *= 2;
  }
}

// Waits for the prompt's end: the socket's `executing {node: null}`, or the
// history when the socket is down or quiet. The server lost the prompt when
// neither its queue nor its history knows it.
std::variant<comfy_history, provider_error> comfy_render::follow() {
  std::string error_type;
  // The history is asked at most once a quiet spell while the socket is down
  // or silent, so a socket that keeps failing does not flood the engine.
  auto last_poll = steady::now();
  for (;;) {
    bool ended = false;
    auto& frames = socket_->frames();
    while (!frames.empty()) {
      auto e = comfy_parse_event(frames.front());
      frames.pop_front();
      if (!e || e->prompt_id != prompt_id_)
        continue;
      if (e->type == "progress" && e->max > 0)
        report(e->value / e->max);
      else if (e->type == "execution_error")
        error_type = e->exception_type;
      else if (e->type == "executing" && e->node_null) {
        ended = true;
        if (req_.engine_done) // the engine is idle: its slot can take the next prompt while this one's history is read
          req_.engine_done->fire();
      }
    }
    if (cancel_.cancelled())
      return provider_error::cancelled();
    if (steady::now() >= calls_.deadline())
      return provider_error::timeout("the engine did not finish within " + core::format_duration(b_.options_.timeout));
    auto now = steady::now();
    bool quiet = now - socket_->last_heard() >= b_.options_.silence;
    bool due = now - last_poll >= b_.options_.silence;
    if (ended || ((socket_->is_down() || quiet) && due)) {
      last_poll = now;
      auto a = call(bhttp::verb::get, "/history/" + prompt_id_, {}, engine_small_answer * 16);
      if (a.fault == exchange_fault::timed_out && !ended)
        return provider_error::timeout("the engine did not answer within the job's deadline");
      if (a.fault != exchange_fault::none && !ended)
        return provider_error::unavailable("the engine stopped answering: " + a.detail);
      auto parsed = comfy_parse_history(a.body, prompt_id_);
      if (auto* bad = std::get_if<provider_error>(&parsed))
        return *bad;
      if (auto& h = std::get<0>(parsed)) {
        if (h->exception_type.empty())
          h->exception_type = error_type;
        return *h;
      }
      auto q = call(bhttp::verb::get, "/queue", {}, engine_small_answer * 64);
      if (q.fault == exchange_fault::none && q.status == 200 && !comfy_queue_holds(q.body, prompt_id_)) {
        // It may have ended between the two calls.
        auto again = comfy_parse_history(call(bhttp::verb::get, "/history/" + prompt_id_).body, prompt_id_);
        if (auto* h = std::get_if<0>(&again); h && *h)
          return **h;
        return provider_error::unavailable("the engine lost the prompt (it restarted?)");
      }
      if (socket_->is_down()) {
        core::log_warn("comfyui", b_.engine_.name + ": websocket lost (" + socket_->why() + "); reconnecting");
        socket_ = std::make_unique<comfy_socket>(calls_.ioc(), b_.url_, b_.engine_.headers, worker_client_id());
        socket_->open(calls_.endpoints(), steady::now() + b_.options_.connect_timeout);
      } else if (quiet) {
        socket_->frames().clear();
        // Heard from history instead: ask again after another quiet spell.
        socket_ = std::make_unique<comfy_socket>(calls_.ioc(), b_.url_, b_.engine_.headers, worker_client_id());
        socket_->open(calls_.endpoints(), steady::now() + b_.options_.connect_timeout);
      }
    }
    wait_a_tick();
  }
}

render_outcome comfy_render::collect(const comfy_history& h, const model_setup& setup) {
  if (!h.success) {
    if (!h.exception_type.empty())
      return provider_error::failed("the engine failed: " + h.exception_type);
    return provider_error::failed(h.interrupted ? "the engine interrupted the render" : "the engine failed the render");
  }
  render_result result;
  for (auto& f : h.files) {
    auto type = comfy_content_type(f.filename);
    bool video = type.substr(0, 6) == "video/";
    if (f.type != "output" || type.empty() || video != req_.is_video())
      continue; // a preview (`temp`), a mask or a second kind the model also saves
    auto a = call(bhttp::verb::get, "/view?" + comfy_view_query(f), {}, output_limit(req_));
    if (a.fault == exchange_fault::too_large)
      return provider_error::failed("the engine's output " + f.filename + " is larger than the asked size can be");
    if (a.fault != exchange_fault::none || a.status != 200)
      return provider_error::unavailable("fetching the output " + f.filename + " failed: " +
                                         (a.fault == exchange_fault::none ? "HTTP " + std::to_string(a.status) : a.detail));
    if (video) {
      // The file's name says nothing of what it holds: a workflow may save
      // other frames, another size or another container than asked.
      std::string error;
      auto facts = probe_video_bytes(a.body, error);
      if (!facts)
        return provider_error::failed("the engine's output " + f.filename + " is no readable video: " + error);
      auto mismatch = video_mismatch(*facts, req_.width, req_.height, req_.duration_seconds * req_.fps,
                                     req_.duration_seconds, setup.frame_tolerance, setup.duration_tolerance);
      if (!mismatch.empty())
        return provider_error::failed(mismatch);
      if (!req_.video_file || !req_.video_file->write_at(0, a.body.data(), a.body.size(), error))
        return provider_error::failed("storing the engine's video failed: " + error);
      result.in_video_file = true;
      result.content_type = facts->content_type;
      result.width = facts->width;
      result.height = facts->height;
      return result;
    }
    auto sniffed = schema::sniff_image(a.body);
    if (!sniffed || sniffed->width != req_.width || sniffed->height != req_.height)
      return provider_error::failed("the engine's output " + f.filename + " is not a " + std::to_string(req_.width) +
                                    "x" + std::to_string(req_.height) + " image");
    if (!result.outputs.empty() && result.content_type != sniffed->content_type)
      return provider_error::failed("the engine's outputs differ in type");
    result.content_type = std::string{sniffed->content_type};
    result.width = sniffed->width;
    result.height = sniffed->height;
    result.outputs.push_back(std::move(a.body));
    if (static_cast<int>(result.outputs.size()) == req_.num_outputs)
      return result;
  }
  return provider_error::failed("the engine saved " + std::to_string(result.outputs.size()) + " of " +
                                std::to_string(req_.is_video() ? 1 : req_.num_outputs) + " outputs");
}

// Delete from the queue, interrupt by id, then confirm (engines.md 1.9).
void comfy_render::cancel_prompt() {
  calls_.set_deadline(steady::now() + b_.options_.connect_timeout); // the job's own deadline may be gone
  auto id = json::serialize(json::array{json::string{prompt_id_}});
  call(bhttp::verb::post, "/queue", "{\"delete\":" + id + "}");
  call(bhttp::verb::post, "/interrupt", json::serialize(json::object{{"prompt_id", prompt_id_}}));
  while (steady::now() < calls_.deadline()) {
    auto q = call(bhttp::verb::get, "/queue", {}, engine_small_answer * 64);
    if (q.fault != exchange_fault::none || (q.status == 200 && !comfy_queue_holds(q.body, prompt_id_)))
      break;
    calls_.pause(comfy_tick); // frames are no longer read: a plain pause
  }
  forget_prompt();
}

void comfy_render::forget_prompt() {
  auto id = json::serialize(json::array{json::string{prompt_id_}});
  call(bhttp::verb::post, "/history", "{\"delete\":" + id + "}");
}

render_outcome comfy_render::run() {
  auto mode = mode_of(req_);
  auto setup = b_.setups_.find(req_.model);
  if (setup == b_.setups_.end())
    return provider_error::failed("the engine serves no model " + req_.model);
  auto workflow = setup->second.workflows.find(mode);
  if (workflow == setup->second.workflows.end())
    return provider_error::failed("the model " + req_.model + " has no " + std::string{to_string(mode)} + " workflow");
  std::string why;
  if (!calls_.resolve(why))
    return provider_error::unavailable("cannot reach the engine: " + why);
  comfy_inputs in{&req_, {}, {}, setup->second.denoise};
  for (auto& l : req_.loras) {
    auto file = b_.lora_files_.find(l.slug);
    if (file == b_.lora_files_.end())
      return provider_error::failed("the LoRA " + l.slug + " has no file on this engine");
    in.lora_files.push_back(file->second);
  }
  if (progress_)
    progress_(0.0);
  if (!req_.init_image.empty())
    if (auto e = upload_init_image(in.init_image))
      return *e;
  auto prompt = comfy_prompt(workflow->second, in);
  if (auto* e = std::get_if<provider_error>(&prompt))
    return *e;
  socket_ = std::make_unique<comfy_socket>(calls_.ioc(), b_.url_, b_.engine_.headers, worker_client_id());
  socket_->open(calls_.endpoints(), steady::now() + b_.options_.connect_timeout);
  calls_.run_until([&] { return socket_->is_open() || socket_->is_down(); });
  if (socket_->is_down())
    return provider_error::unavailable("the engine's websocket: " + socket_->why());
  if (auto e = submit(std::get<json::object>(prompt)))
    return *e;
  auto end = follow();
  socket_.reset(); // no more frames are read: none may pile up while outputs download
  if (auto* e = std::get_if<provider_error>(&end)) {
    // Whatever ended the wait, the prompt must not run on unwatched (a lost
    // one is only not found).
    cancel_prompt();
    return *e;
  }
  if (req_.engine_done) // the prompt ran: only its outputs are left to fetch
    req_.engine_done->fire();
  auto outcome = collect(std::get<comfy_history>(end), setup->second);
  forget_prompt();
  if (outcome.ok() && progress_)
    progress_(1.0);
  return outcome;
}

comfyui_backend::comfyui_backend(engine_spec engine, remote_url url, std::map<std::string, model_setup> setups,
                                 std::map<std::string, std::string> lora_files, comfyui_options options)
    : engine_(std::move(engine)), url_(std::move(url)), setups_(std::move(setups)), lora_files_(std::move(lora_files)),
      options_(options) {}

std::string comfyui_backend::check_workflows() {
  std::lock_guard lock{check_mutex_};
  if (checked_ || steady::now() - last_check_ < engine_recheck_interval)
    return check_failure_;
  last_check_ = steady::now();
  net::io_context ioc;
  std::string why;
  auto endpoints = resolve_endpoints(url_.host, url_.port, why);
  exchange_request r;
  r.target = url_.target("/object_info");
  r.host = url_.host_header();
  r.authorization = url_.authorization;
  r.headers = engine_.headers;
  r.connect_deadline = steady::now() + options_.connect_timeout;
  r.deadline = r.connect_deadline + options_.connect_timeout;
  r.body_limit = comfy_object_info_answer;
  exchange_answer got{exchange_fault::connect_failed, 0, {}, why};
  if (!endpoints.empty()) {
    http_exchange::start(ioc, endpoints, std::move(r), [&got](exchange_answer a) { got = std::move(a); });
    ioc.run();
  }
  if (got.fault != exchange_fault::none || got.status != 200) {
    core::log_warn("comfyui", engine_.name + ": /object_info unavailable (" +
                                (got.fault == exchange_fault::none ? "HTTP " + std::to_string(got.status) : got.detail) +
                                "); its workflows are checked at its first render");
    return {};
  }
  boost::system::error_code ec;
  auto info = json::parse(got.body, ec);
  if (ec || !info.is_object()) {
    check_failure_ = "engine " + engine_.name + ": /object_info is not JSON";
  } else {
    for (auto& [model, setup] : setups_)
      for (auto& [mode, w] : setup.workflows)
        if (auto miss = comfy_check_workflow(w, info.as_object()); !miss.empty() && check_failure_.empty())
          check_failure_ = "engine " + engine_.name + ", model " + model + ": " + miss;
    for (auto& [slug, file] : lora_files_)
      if (check_failure_.empty() && !comfy_has_lora_file(info.as_object(), file))
        check_failure_ = "engine " + engine_.name + ": the LoRA file " + file + " (" + slug + ") is not installed";
  }
  checked_ = true;
  return check_failure_;
}

render_outcome comfyui_backend::render(const render_request& req, const progress_fn& progress,
                                       const cancel_token& cancel) {
  if (auto failure = check_workflows(); !failure.empty())
    return provider_error::failed(failure);
  auto outcome = comfy_render{*this, req, progress, cancel}.run();
  if (!outcome.ok() && outcome.error().code != "cancelled")
    core::log_warn("comfyui", engine_.name + ": render failed (" + outcome.error().code + "): " + outcome.error().message);
  return outcome;
}

std::string comfyui_backend::probe(std::chrono::milliseconds timeout) {
  return probe_get(url_, engine_.headers, "/system_stats", timeout);
}

} // namespace svc::providers
