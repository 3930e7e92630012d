#include "comfyui_server.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>

#include "tests/support/fake_media.hpp"
#include "tests/support/loopback_listener.hpp"
#include "tests/support/one_request_http.hpp"

namespace svc::test {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

bool is_uuid(std::string_view s) {
  if (s.size() != 36)
    return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    char c = s[i];
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  }
  return true;
}

std::string_view content_type_of(std::string_view name) {
  if (name.size() > 4 && name.substr(name.size() - 4) == ".mp4")
    return "video/mp4";
  return name.size() > 4 && name.substr(name.size() - 4) == ".png" ? "image/png" : "application/octet-stream";
}

std::string query_value(std::string_view query, std::string_view key) {
  std::string want = std::string{key} + "=";
  std::size_t at = 0;
  while (at <= query.size()) {
    auto end = query.find('&', at);
    auto part = query.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (part.substr(0, want.size()) == want) {
      std::string raw{part.substr(want.size())}, out;
      for (std::size_t i = 0; i < raw.size(); ++i)
        if (raw[i] == '%' && i + 2 < raw.size()) {
          out += static_cast<char>(std::stoi(raw.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          out += raw[i] == '+' ? ' ' : raw[i];
        }
      return out;
    }
    if (end == std::string_view::npos)
      break;
    at = end + 1;
  }
  return {};
}

// The parts of a multipart body, by name: {filename, bytes}.
std::map<std::string, std::pair<std::string, std::string>> multipart_parts(std::string_view content_type,
                                                                          std::string_view body) {
  std::map<std::string, std::pair<std::string, std::string>> parts;
  auto b = content_type.find("boundary=");
  if (b == std::string_view::npos)
    return parts;
  std::string delim = "--" + std::string{content_type.substr(b + 9)};
  std::size_t at = body.find(delim);
  while (at != std::string_view::npos) {
    at += delim.size();
    if (body.substr(at, 2) == "--")
      break;
    auto head_end = body.find("\r\n\r\n", at);
    auto next = body.find("\r\n" + delim, head_end);
    if (head_end == std::string_view::npos || next == std::string_view::npos)
      break;
    auto head = body.substr(at, head_end - at);
    auto field = [&](std::string_view key) {
      auto k = head.find(key);
      if (k == std::string_view::npos)
        return std::string{};
      auto start = k + key.size();
      return std::string{head.substr(start, head.find('"', start) - start)};
    };
    parts[field("name=\"")] = {field("filename=\""), std::string{body.substr(head_end + 4, next - head_end - 4)}};
    at = next + 2;
  }
  return parts;
}

} // namespace

struct comfyui_server::impl {
  struct socket_session {
    explicit socket_session(tcp::socket s) : ws(std::move(s)) {}
    websocket::stream<tcp::socket> ws;
    std::deque<std::string> out;
    bool writing = false, closed = false;
    beast::flat_buffer buffer;
  };
  struct queued {
    double number;
    std::string id;
    json::object prompt;
    std::string client;
    std::chrono::steady_clock::time_point accepted = std::chrono::steady_clock::now();
  };

  std::chrono::milliseconds step_time;
  mutable std::mutex mutex; // everything below: the io thread writes, tests read
  comfyui_faults faults;
  comfyui_installed installed;
  std::vector<comfyui_request> requests;
  std::vector<json::object> prompts;
  std::vector<double> render_seconds; // of each finished prompt: accepted to its end
  std::vector<comfyui_span> render_spans;
  std::vector<queued> queue;
  std::optional<queued> run;
  int run_step = 0;
  bool interrupt = false;
  json::object history;
  std::map<std::string, std::string> files; // "type/subfolder/name" -> bytes
  std::vector<std::string> uploaded;
  std::map<std::string, std::shared_ptr<socket_session>> sockets; // by client id
  double counter = 0;
  int saved = 0;
  std::uint64_t generation = 0; // a restart ends the running prompt's timer chain
  bool down = false;            // every request is met by a closed connection, as a dead server's

  loopback_listener listener;  // before step_timer, which runs on its io_context
  net::steady_timer step_timer;

  explicit impl(std::chrono::milliseconds t) : step_time(t), step_timer(listener.ioc) {}

  // --- websocket
  void send(const std::shared_ptr<socket_session>& s, std::string frame) {
    if (s->closed || faults.silent_socket)
      return;
    s->out.push_back(std::move(frame));
    flush(s);
  }
  void flush(const std::shared_ptr<socket_session>& s) {
    if (s->writing || s->out.empty() || s->closed)
      return;
    s->writing = true;
    s->ws.text(true);
    s->ws.async_write(net::buffer(s->out.front()), [this, s](error_code ec, std::size_t) {
      s->writing = false;
      if (ec) {
        s->closed = true;
        return;
      }
      s->out.pop_front();
      flush(s);
    });
  }
  void event(const std::string& client, const std::string& type, json::object data) {
    auto it = sockets.find(client);
    if (it != sockets.end()) // not connected: dropped, as ComfyUI does
      send(it->second, json::serialize(json::object{{"type", type}, {"data", std::move(data)}}));
  }
  void broadcast_status() {
    json::object data{{"status", {{"exec_info", {{"queue_remaining", queue.size() + (run ? 1 : 0)}}}}}};
    for (auto& [id, s] : sockets)
      send(s, json::serialize(json::object{{"type", "status"}, {"data", data}}));
  }
  // As a process that restarts: its queue, history, running prompt and sockets are gone. Under `mutex`.
  void forget() {
    ++generation;
    step_timer.cancel();
    queue.clear();
    run.reset();
    history = {};
    close_sockets();
  }
  void close_sockets() {
    for (auto& [id, s] : sockets) {
      s->closed = true;
      error_code ignored;
      beast::get_lowest_layer(s->ws).close(ignored);
    }
    sockets.clear();
  }
  void accept_socket(tcp::socket socket, bhttp::request<bhttp::string_body> req, std::string client) {
    auto s = std::make_shared<socket_session>(std::move(socket));
    s->ws.async_accept(req, [this, s, client](error_code ec) {
      if (ec)
        return;
      std::lock_guard lock(mutex);
      if (auto old = sockets.find(client); old != sockets.end()) { // the later connection takes over
        old->second->closed = true;
        error_code ignored;
        beast::get_lowest_layer(old->second->ws).close(ignored);
      }
      sockets[client] = s;
      send(s, json::serialize(json::object{
                {"type", "status"},
                {"data", {{"status", {{"exec_info", {{"queue_remaining", queue.size() + (run ? 1 : 0)}}}}}, {"sid", client}}}}));
      if (run && run->client == client)
        send(s, json::serialize(json::object{{"type", "executing"}, {"data", {{"node", "3"}}}}));
      read_socket(s);
    });
  }
  void read_socket(const std::shared_ptr<socket_session>& s) {
    s->ws.async_read(s->buffer, [this, s](error_code ec, std::size_t) {
      if (ec) {
        s->closed = true;
        return;
      }
      s->buffer.consume(s->buffer.size());
      read_socket(s);
    });
  }

  // --- execution (io thread, under the mutex)
  void start_next() {
    if (run || queue.empty())
      return;
    auto next = std::min_element(queue.begin(), queue.end(), [](auto& a, auto& b) { return a.number < b.number; });
    run = std::move(*next);
    queue.erase(next);
    run_step = 0;
    interrupt = false;
    broadcast_status();
    if (faults.drop_socket)
      close_sockets();
    event(run->client, "execution_start", {{"prompt_id", run->id}, {"timestamp", now_ms()}});
    event(run->client, "execution_cached", {{"nodes", json::array{}}, {"prompt_id", run->id}, {"timestamp", now_ms()}});
    event(run->client, "executing", {{"node", "3"}, {"display_node", "3"}, {"prompt_id", run->id}});
    arm_step();
  }
  void arm_step() {
    step_timer.expires_after(step_time);
    step_timer.async_wait([this, gen = generation](error_code ec) {
      if (ec)
        return;
      std::lock_guard lock(mutex);
      if (gen == generation && run)
        step();
    });
  }
  void step() {
    auto work = comfyui_work_of(run->prompt);
    if (interrupt)
      return finish(work, "execution_interrupted");
    if (faults.out_of_memory)
      return finish(work, "execution_error");
    ++run_step;
    event(run->client, "progress", {{"value", run_step}, {"max", work.steps}, {"prompt_id", run->id}, {"node", "3"}});
    if (run_step < work.steps || faults.hang)
      return arm_step();
    finish(work, "execution_success");
  }
  json::object save_outputs(const comfyui_work& w) {
    json::object outputs;
    auto save = [&](const std::string& sub, const std::string& name, std::string bytes, const std::string& type = "output") {
      files[type + "/" + sub + "/" + name] = std::move(bytes);
      return json::object{{"filename", name}, {"subfolder", sub}, {"type", type}};
    };
    if (faults.previews) // ComfyUI's own preview node: a temp file of another size
      outputs["preview"] = {{"images", json::array{save("", "ComfyUI_temp_" + std::to_string(++saved) + "_.png",
                                                           fake_png(64, 64, w.seed), "temp")}}};
    if (!w.video_saver.empty()) {
      auto name = "ComfyUI_" + std::to_string(++saved) + "_.mp4";
      auto f = save("video", name, fake_mp4(w.width, w.height, w.frames, w.fps));
      outputs[w.video_saver] = {{"images", json::array{f}}, {"animated", json::array{true}}};
    }
    for (auto& node : w.image_savers) {
      json::array images;
      for (int i = 0; i < w.batch; ++i)
        images.push_back(save("", "ComfyUI_" + std::to_string(++saved) + "_.png", fake_png(w.width, w.height, w.seed + i)));
      outputs[node] = {{"images", std::move(images)}};
    }
    for (auto& [node, out] : outputs)
      event(run->client, "executed", {{"node", node}, {"display_node", node}, {"output", out}, {"prompt_id", run->id}});
    return outputs;
  }
  void finish(const comfyui_work& w, const std::string& how) {
    json::array messages{json::array{"execution_start", {{"prompt_id", run->id}, {"timestamp", now_ms()}}}};
    json::object outputs;
    if (how == "execution_success") {
      outputs = save_outputs(w);
      event(run->client, "execution_success", {{"prompt_id", run->id}, {"timestamp", now_ms()}});
    } else if (how == "execution_error") {
      json::object data{{"prompt_id", run->id}, {"node_id", "3"}, {"node_type", "KSampler"},
                        {"executed", json::array{}}, {"exception_message", "Allocation on device would exceed allowed memory."},
                        {"exception_type", "torch.OutOfMemoryError"}, {"traceback", json::array{}},
                        {"current_inputs", json::object{}}, {"current_outputs", json::object{}}, {"timestamp", now_ms()}};
      event(run->client, "execution_error", data);
      messages.push_back(json::array{"execution_error", data});
    } else {
      json::object data{{"prompt_id", run->id}, {"node_id", "3"}, {"node_type", "KSampler"}, {"executed", json::array{}},
                        {"timestamp", now_ms()}};
      event(run->client, "execution_interrupted", data);
      messages.push_back(json::array{"execution_interrupted", data});
    }
    if (how == "execution_success")
      messages.push_back(json::array{"execution_success", {{"prompt_id", run->id}, {"timestamp", now_ms()}}});
    // Written before the final event, as ComfyUI does.
    history[run->id] = {{"prompt", json::array{run->number, run->id, run->prompt, {{"client_id", run->client}}, json::array{}}},
                        {"outputs", outputs},
                        {"status", {{"status_str", how == "execution_success" ? "success" : "error"},
                                    {"completed", how == "execution_success"},
                                    {"messages", messages}}},
                        {"meta", json::object{}}};
    auto client = run->client, id = run->id;
    auto ended = std::chrono::steady_clock::now();
    render_seconds.push_back(std::chrono::duration<double>(ended - run->accepted).count());
    render_spans.push_back({run->accepted, ended});
    run.reset();
    broadcast_status();
    event(client, "executing", {{"node", nullptr}, {"prompt_id", id}});
    start_next();
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
  void handle(const std::shared_ptr<tcp::socket>& socket, bhttp::request<bhttp::string_body> req) {
    std::string target{req.target()};
    auto q = target.find('?');
    std::string path = target.substr(0, q), query = q == std::string::npos ? "" : target.substr(q + 1);
    if (path.rfind("/api/", 0) == 0)
      path = path.substr(4);
    std::lock_guard lock(mutex);
    if (down) {
      error_code ignored;
      socket->shutdown(tcp::socket::shutdown_both, ignored);
      socket->close(ignored);
      return;
    }
    requests.push_back({std::string{req.method_string()}, path, query, req.body(),
                        std::string{req[bhttp::field::authorization]}, std::chrono::steady_clock::now()});
    auto host = std::string{req[bhttp::field::host]}, origin = std::string{req["Origin"]};
    if (!origin.empty() && host.rfind("127.0.0.1", 0) == 0 && origin.find(host) == std::string::npos)
      return respond(socket, 403, "");
    bool get = req.method() == bhttp::verb::get, post = req.method() == bhttp::verb::post;
    json::value body;
    if (post && req[bhttp::field::content_type].find("json") != std::string_view::npos) {
      error_code ec;
      body = json::parse(req.body(), ec);
      if (ec)
        return respond(socket, 500, "500 Internal Server Error", "text/plain");
    }
    if (get && path == "/ws" && websocket::is_upgrade(req)) {
      auto client = query_value(query, "clientId");
      return accept_socket(std::move(*socket), std::move(req), client);
    }
    if (get && path == "/object_info")
      return respond(socket, 200, json::serialize(comfyui_object_info(installed)));
    if (get && path == "/system_stats")
      return respond(socket, 200, R"({"system":{"os":"posix","comfyui_version":"0.3.64"},"devices":[]})");
    if (get && path == "/prompt")
      return respond(socket, 200, json::serialize(json::object{{"exec_info", {{"queue_remaining", queue.size() + (run ? 1 : 0)}}}}));
    if (post && path == "/prompt")
      return submit(socket, body);
    if (get && path == "/queue") {
      auto item = [](const queued& x) { return json::array{x.number, x.id, x.prompt, {{"client_id", x.client}}, json::array{}}; };
      json::array running, pending;
      if (run)
        running.push_back(item(*run));
      for (auto& x : queue) // heap order, not sorted
        pending.push_back(item(x));
      return respond(socket, 200, json::serialize(json::object{{"queue_running", running}, {"queue_pending", pending}}));
    }
    if (post && path == "/queue") {
      if (auto* d = body.is_object() ? body.as_object().if_contains("delete") : nullptr; d && d->is_array())
        for (auto& id : d->as_array())
          queue.erase(std::remove_if(queue.begin(), queue.end(), [&](auto& x) { return json::value(x.id) == id; }),
                      queue.end());
      broadcast_status();
      return respond(socket, 200, "");
    }
    if (post && path == "/interrupt") {
      auto* id = body.is_object() ? body.as_object().if_contains("prompt_id") : nullptr;
      if (run && (!id || *id == json::value(run->id)))
        interrupt = true; // lands at the next step
      return respond(socket, 200, "");
    }
    if (get && path.rfind("/history/", 0) == 0) {
      auto id = path.substr(9);
      json::object out;
      if (auto* h = history.if_contains(id))
        out[id] = *h;
      return respond(socket, 200, json::serialize(out));
    }
    if (post && path == "/history") {
      if (auto* d = body.is_object() ? body.as_object().if_contains("delete") : nullptr; d && d->is_array())
        for (auto& id : d->as_array())
          if (id.is_string())
            history.erase(id.as_string());
      return respond(socket, 200, "");
    }
    if (get && path == "/view") {
      auto name = query_value(query, "filename"), sub = query_value(query, "subfolder"), type = query_value(query, "type");
      if (name.empty() || name[0] == '/' || name.find("..") != std::string::npos)
        return respond(socket, 400, "");
      if (sub.find("..") != std::string::npos)
        return respond(socket, 403, "");
      auto it = files.find((type.empty() ? "output" : type) + "/" + sub + "/" + name);
      if (it == files.end())
        return respond(socket, 404, "");
      return respond(socket, 200, it->second, content_type_of(name));
    }
    if (post && path == "/upload/image")
      return upload(socket, req);
    respond(socket, 404, "404: Not Found", "text/plain");
  }
  void submit(const std::shared_ptr<tcp::socket>& socket, const json::value& body) {
    auto* o = body.if_object();
    auto* prompt = o ? o->if_contains("prompt") : nullptr;
    if (!prompt || !prompt->is_object())
      return respond(socket, 400, R"({"error":{"type":"no_prompt","message":"No prompt provided","details":"","extra_info":{}},"node_errors":{}})");
    std::string id = o->if_contains("prompt_id") && o->at("prompt_id").is_string()
                       ? std::string{o->at("prompt_id").as_string()} : std::string{};
    if (!is_uuid(id))
      return respond(socket, 400, R"({"error":{"type":"invalid_prompt_id","message":"Invalid prompt_id format","details":"","extra_info":{}},"node_errors":{}})");
    if (auto refusal = comfyui_refusal(prompt->as_object(), installed, uploaded))
      return respond(socket, 400, json::serialize(*refusal));
    std::string client = o->if_contains("client_id") && o->at("client_id").is_string()
                           ? std::string{o->at("client_id").as_string()} : std::string{};
    prompts.push_back(prompt->as_object());
    double number = ++counter;
    queue.push_back({number, id, prompt->as_object(), client});
    json::object node_errors;
    if (faults.partial_node_errors)
      node_errors["12"] = {{"errors", json::array{json::object{{"type", "required_input_missing"},
                                                               {"message", "Required input is missing"},
                                                               {"details", "images"}, {"extra_info", json::object{}}}}},
                           {"dependent_outputs", json::array{"12"}}, {"class_type", "SaveImage"}};
    respond(socket, 200, json::serialize(json::object{{"prompt_id", id}, {"number", number}, {"node_errors", node_errors}}));
    broadcast_status();
    start_next();
  }
  void upload(const std::shared_ptr<tcp::socket>& socket, const bhttp::request<bhttp::string_body>& req) {
    auto parts = multipart_parts(req[bhttp::field::content_type], req.body());
    auto image = parts.find("image");
    if (image == parts.end() || image->second.first.empty())
      return respond(socket, 400, "");
    auto sub = parts.count("subfolder") ? parts["subfolder"].second : std::string{};
    bool overwrite = parts.count("overwrite") && (parts["overwrite"].second == "true" || parts["overwrite"].second == "1");
    auto name = image->second.first;
    auto key = [&](const std::string& n) { return "input/" + sub + "/" + n; };
    if (!overwrite) // a clash with other bytes gets "x (1).png"; identical bytes the existing name
      for (int i = 1; files.count(key(name)) && files[key(name)] != image->second.second; ++i) {
        auto dot = image->second.first.rfind('.');
        name = image->second.first.substr(0, dot) + " (" + std::to_string(i) + ")" + image->second.first.substr(dot);
      }
    files[key(name)] = image->second.second;
    auto full = sub.empty() ? name : sub + "/" + name;
    if (std::find(uploaded.begin(), uploaded.end(), full) == uploaded.end())
      uploaded.push_back(full);
    respond(socket, 200, json::serialize(json::object{{"name", name}, {"subfolder", sub}, {"type", "input"}}));
  }
};

comfyui_server::comfyui_server(std::chrono::milliseconds step_time) : impl_(std::make_unique<impl>(step_time)) {
  impl_->accept();
  impl_->listener.start();
}

comfyui_server::~comfyui_server() {
  impl_->listener.stop([this] {
    std::lock_guard lock(impl_->mutex);
    impl_->step_timer.cancel();
    impl_->close_sockets();
  });
}

std::string comfyui_server::url() const { return "http://127.0.0.1:" + std::to_string(impl_->listener.port); }

void comfyui_server::set_faults(comfyui_faults f) {
  std::lock_guard lock(impl_->mutex);
  impl_->faults = f;
}

void comfyui_server::set_down(bool down) {
  net::post(impl_->listener.ioc, [this, down] {
    std::lock_guard lock(impl_->mutex);
    if (down) // what it ran dies with it
      impl_->forget();
    impl_->down = down;
  });
}

void comfyui_server::restart() {
  net::post(impl_->listener.ioc, [this] {
    std::lock_guard lock(impl_->mutex);
    impl_->forget();
  });
}

std::vector<comfyui_request> comfyui_server::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

std::vector<json::object> comfyui_server::prompts() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->prompts;
}

std::size_t comfyui_server::count(const std::string& method, const std::string& path) const {
  std::lock_guard lock(impl_->mutex);
  return std::count_if(impl_->requests.begin(), impl_->requests.end(),
                       [&](auto& r) { return r.method == method && r.path == path; });
}

std::size_t comfyui_server::history_size() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->history.size();
}

std::vector<std::string> comfyui_server::uploads() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->uploaded;
}

std::string comfyui_server::running() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->run ? impl_->run->id : std::string{};
}

std::vector<double> comfyui_server::render_seconds() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->render_seconds;
}

std::vector<comfyui_span> comfyui_server::render_spans() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->render_spans;
}

std::size_t comfyui_server::pending() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->queue.size();
}

} // namespace svc::test
