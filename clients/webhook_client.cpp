#include "clients/webhook_client.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "core/log.hpp"
#include "schema/address_policy.hpp"

namespace svc::clients {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
using steady = std::chrono::steady_clock;
using error_code = boost::system::error_code;
using actors::webhook_answer;
using schema::delivery_error;

constexpr std::size_t max_answer_bytes = 64 * 1024; ///< a longer answer closes the connection
constexpr std::chrono::milliseconds sweep_period{1000}; ///< how often idle connections are checked

struct host_pool;

// One TLS connection; attached to at most one attempt at a time.
struct connection {
  connection(net::io_context& ioc, ssl::context& ctx) : stream(ioc, ctx), resolver(ioc) {}
  ssl::stream<tcp::socket> stream;
  tcp::resolver resolver;
  std::vector<tcp::endpoint> endpoints; ///< the checked addresses, connected to in order
  boost::beast::flat_buffer buffer;
  std::optional<bhttp::response_parser<bhttp::string_body>> parser;
  host_pool* pool = nullptr;
  steady::time_point idle_since;
  bool reused = false;  ///< taken from the idle pool for the current attempt
  bool counted = true;  ///< still counted in `pool->open`

  void close() {
    resolver.cancel();
    error_code ec;
    stream.next_layer().close(ec);
  }
};
using connection_ptr = std::shared_ptr<connection>;

// One post from `post()` to `done`.
struct attempt {
  explicit attempt(net::io_context& ioc) : timer(ioc) {}
  actors::webhook_post request;
  std::function<void(webhook_answer)> done;
  schema::webhook_url url;
  std::string wire;  ///< the serialized request
  steady::time_point handed_over; ///< when it got a connection: its deadline and duration count from here
  net::steady_timer timer;        ///< the queue wait, then the attempt's deadline
  connection_ptr conn;
  const char* phase = "waiting for a connection";
  bool finished = false;
  bool retried = false;
};
using attempt_ptr = std::shared_ptr<attempt>;

struct host_pool {
  std::deque<connection_ptr> idle;     ///< most recently parked at the back
  std::deque<attempt_ptr> waiting;     ///< posts waiting for a connection slot
  std::size_t open = 0;                ///< connections counted against the cap
};

bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The request as sent; nullopt if a header name or value could not be sent
// as it is (never says which value: values may be secrets).
std::optional<std::string> serialize(const actors::webhook_post& p, const schema::webhook_url& u, std::string& why) {
  std::string out;
  out.reserve(128 + p.body.size() + p.headers.size() * 64);
  out += "POST ";
  out += u.target;
  out += " HTTP/1.1\r\nHost: ";
  out += u.host.find(':') == std::string::npos ? u.host : "[" + u.host + "]";
  if (u.port != 443)
    out += ":" + std::to_string(u.port);
  out += "\r\n";
  for (auto& [name, value] : p.headers) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), token_char)) {
      why = "invalid header name";
      return std::nullopt;
    }
    if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) {
      why = "invalid value of header " + name;
      return std::nullopt;
    }
    using boost::beast::iequals;
    if (iequals(name, "host") || iequals(name, "content-length") || iequals(name, "transfer-encoding") ||
        iequals(name, "connection"))
      continue;
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += "Content-Length: " + std::to_string(p.body.size()) + "\r\n\r\n";
  out += p.body;
  return out;
}

delivery_error status_error(int status) {
  if (status >= 200 && status < 300)
    return delivery_error::none;
  return status >= 500 && status < 600 ? delivery_error::http_5xx : delivery_error::http_4xx;
}

} // namespace

struct webhook_client::impl {
  explicit impl(webhook_client_options o)
      : options(std::move(o)), work(net::make_work_guard(ioc)), sweep_timer(ioc) {
    // The system store (~140 parsed certificates, ~1 MB) is read by the
    // first delivery, so a server whose teams register no endpoint never
    // holds it; an operator's CA file is still checked at start.
    if (!options.ca_file.empty())
      make_tls();
    arm_sweep();
    thread = std::thread([this] { ioc.run(); });
  }

  // --- any thread -------------------------------------------------------

  void post(actors::webhook_post request, std::function<void(webhook_answer)> done) {
    auto att = std::make_shared<attempt>(ioc);
    att->request = std::move(request);
    att->done = std::move(done);
    {
      std::lock_guard lock(mutex);
      if (!stopping) {
        net::post(ioc, [this, att] { start(att); });
        return;
      }
    }
    // Stopped: answered on the caller's thread, touching no shared state.
    webhook_answer answer;
    answer.error = delivery_error::connect_error;
    answer.detail = "client stopped";
    if (att->done)
      att->done(std::move(answer));
  }

  void stop() {
    std::lock_guard stop_lock(stop_mutex);
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    if (!thread.joinable())
      return;
    net::post(ioc, [this] { shutdown(); });
    thread.join();
  }

  // --- the client's thread ----------------------------------------------

  void start(const attempt_ptr& att) {
    if (closing)
      return complete(att, delivery_error::connect_error, "client stopped");
    std::string why;
    auto url = schema::parse_webhook_url(att->request.url, why);
    if (!url)
      return complete(att, delivery_error::connect_error, "invalid URL: " + why);
    att->url = std::move(*url);
    auto wire = serialize(att->request, att->url, why);
    if (!wire)
      return complete(att, delivery_error::connect_error, why);
    att->wire = std::move(*wire);
    att->request = {};
    in_flight.insert(att);
    arm_timer(att, options.queue_timeout);
    auto& pool = pools[att->url.host + ":" + std::to_string(att->url.port)];
    dispatch(att, pool);
  }

  // The context every connection verifies with: the system store plus the
  // operator's CA file. Throws when the CA file cannot be loaded.
  void make_tls() {
    ssl::context ctx{ssl::context::tls_client};
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                    ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    error_code ec;
    ctx.set_default_verify_paths(ec); // a missing system store still lets ca_file work
    if (!options.ca_file.empty()) {
      ctx.load_verify_file(options.ca_file, ec);
      if (ec)
        throw std::runtime_error("cannot load CA file " + options.ca_file + ": " + ec.message());
    }
    ctx.set_verify_mode(ssl::verify_peer);
    tls.emplace(std::move(ctx));
  }

  void arm_timer(const attempt_ptr& att, std::chrono::milliseconds after) {
    att->timer.expires_after(after); // cancels the wait armed before, if any
    att->timer.async_wait([this, att](error_code ec) {
      if (!ec)
        on_timeout(att);
    });
  }

  // Gives `att` an idle connection, a new one, or a place in the queue; its
  // deadline starts when it gets a connection.
  void dispatch(const attempt_ptr& att, host_pool& pool) {
    while (!pool.idle.empty()) {
      auto conn = std::move(pool.idle.back());
      pool.idle.pop_back();
      if (steady::now() - conn->idle_since > options.idle_timeout) {
        drop(conn);
        continue;
      }
      conn->reused = true;
      hand_over(att);
      return send(att, conn);
    }
    if (pool.open < options.max_open_per_host) {
      hand_over(att);
      return open(att, pool);
    }
    pool.waiting.push_back(att);
  }

  void hand_over(const attempt_ptr& att) {
    att->handed_over = steady::now();
    arm_timer(att, options.timeout);
  }

  void serve_waiters(host_pool& pool) {
    while (!closing && !pool.waiting.empty() && (!pool.idle.empty() || pool.open < options.max_open_per_host)) {
      auto att = std::move(pool.waiting.front());
      pool.waiting.pop_front();
      if (!att->finished)
        dispatch(att, pool);
    }
  }

  void open(const attempt_ptr& att, host_pool& pool) {
    if (!tls) {
      try {
        make_tls();
      } catch (const std::exception& e) {
        return complete(att, delivery_error::tls_error, e.what());
      }
    }
    auto conn = std::make_shared<connection>(ioc, *tls);
    conn->pool = &pool;
    ++pool.open;
    att->conn = conn;
    boost::system::error_code ec;
    auto literal = net::ip::make_address(att->url.host, ec);
    if (!ec) {
      att->phase = "connect";
      return check_and_connect(att, conn, {tcp::endpoint(literal, att->url.port)});
    }
    att->phase = "resolve";
    conn->resolver.async_resolve(att->url.host, std::to_string(att->url.port),
                                 [this, att, conn](error_code ec, tcp::resolver::results_type results) {
                                   if (!goes_on(att, conn, ec))
                                     return;
                                   std::vector<tcp::endpoint> eps;
                                   for (auto& r : results)
                                     eps.push_back(r.endpoint());
                                   att->phase = "connect";
                                   check_and_connect(att, conn, std::move(eps));
                                 });
  }

  // The SSRF rule: every address the name gave must be allowed.
  void check_and_connect(const attempt_ptr& att, const connection_ptr& conn, std::vector<tcp::endpoint> eps) {
    if (!options.allow_private)
      for (auto& ep : eps)
        if (auto range = schema::forbidden_range(ep.address())) {
          discard(conn);
          // The delivery row is shown to API clients: it must not map the
          // network behind svcd. The operator's log says which address it was.
          core::log_warn("webhooks", att->url.host + " resolved to " + ep.address().to_string() + " (" + *range +
                                         "): destination not allowed");
          return complete(att, delivery_error::connect_error, "destination not allowed");
        }
    conn->endpoints = std::move(eps);
    net::async_connect(conn->stream.next_layer(), conn->endpoints,
                       [this, att, conn](error_code ec, const tcp::endpoint&) {
                         if (goes_on(att, conn, ec))
                           handshake(att, conn);
                       });
  }

  void handshake(const attempt_ptr& att, const connection_ptr& conn) {
    att->phase = "TLS handshake";
    if (!schema::is_ip_literal(att->url))
      SSL_set_tlsext_host_name(conn->stream.native_handle(), att->url.host.c_str());
    conn->stream.set_verify_callback(ssl::host_name_verification(att->url.host));
    conn->stream.async_handshake(ssl::stream_base::client, [this, att, conn](error_code ec) {
      if (goes_on(att, conn, ec))
        send(att, conn);
    });
  }

  void send(const attempt_ptr& att, const connection_ptr& conn) {
    att->conn = conn;
    att->phase = "write";
    conn->parser.emplace();
    conn->parser->body_limit(max_answer_bytes);
    net::async_write(conn->stream, net::buffer(att->wire), [this, att, conn](error_code ec, std::size_t) {
      if (!goes_on(att, conn, ec))
        return;
      att->phase = "read";
      bhttp::async_read(conn->stream, conn->buffer, *conn->parser,
                        [this, att, conn](error_code ec, std::size_t) { on_read(att, conn, ec); });
    });
  }

  void on_read(const attempt_ptr& att, const connection_ptr& conn, error_code ec) {
    if (abandoned(att, conn))
      return;
    auto& parser = *conn->parser;
    // An answer delimited by the end of the stream may end without close_notify.
    if (ec == ssl::error::stream_truncated && parser.is_header_done() && parser.need_eof()) {
      ec = {};
      parser.put_eof(ec);
    }
    if (ec && ec != bhttp::error::body_limit)
      return fail(att, conn, ec);
    auto& res = parser.get();
    const int status = static_cast<int>(res.result_int());
    std::string body = res.body().substr(0, schema::stored_response_bytes);
    const bool keep = !ec && status >= 200 && res.keep_alive() && conn->buffer.size() == 0;
    std::string detail;
    auto error = status_error(status);
    if (status >= 300 && status < 400)
      detail = "redirect (HTTP " + std::to_string(status) + ") not followed";
    else if (error != delivery_error::none)
      detail = "HTTP " + std::to_string(status);
    if (ec)
      detail += std::string(detail.empty() ? "" : "; ") + "answer body over 64 KiB not read";
    att->conn = nullptr;
    if (keep)
      park(conn);
    else
      discard(conn);
    complete(att, error, std::move(detail), status, std::move(body));
  }

  // True (and the connection let go) if the attempt ended while `conn` was busy.
  bool abandoned(const attempt_ptr& att, const connection_ptr& conn) {
    if (!att->finished && !closing)
      return false;
    discard(conn);
    return true;
  }

  // Whether the attempt goes on after a step that ended with `ec`: false
  // once it was abandoned, or after failing it.
  bool goes_on(const attempt_ptr& att, const connection_ptr& conn, error_code ec) {
    if (abandoned(att, conn))
      return false;
    if (ec)
      fail(att, conn, ec);
    return !ec;
  }

  void fail(const attempt_ptr& att, const connection_ptr& conn, error_code ec) {
    const bool nothing_read = !conn->parser || !conn->parser->got_some();
    const bool before_answer = att->phase == std::string_view("write") || att->phase == std::string_view("read");
    if (conn->reused && before_answer && nothing_read && !att->retried && steady::now() < att->timer.expiry()) {
      // The server closed the idle connection: one more try on a fresh one.
      att->retried = true;
      drop(conn);
      return open(att, *conn->pool);
    }
    auto error = delivery_error::connect_error;
    if (ec == net::error::connection_refused)
      error = delivery_error::connect_refused;
    else if (att->phase == std::string_view("TLS handshake") || ec.category() == net::error::get_ssl_category() ||
             ec.category() == ssl::error::get_stream_category())
      error = delivery_error::tls_error;
    std::string detail = std::string(att->phase) + ": " + ec.message();
    // A transport error has no status (contract), even when the head of an
    // answer came before the connection broke: that answer never arrived.
    if (conn->parser && conn->parser->is_header_done())
      detail += " (after the head of an HTTP " + std::to_string(conn->parser->get().result_int()) + " answer)";
    discard(conn);
    complete(att, error, std::move(detail));
  }

  void on_timeout(const attempt_ptr& att) {
    if (att->finished)
      return;
    if (att->conn)
      att->conn->close(); // its pending operation ends and lets the connection go
    if (att->handed_over == steady::time_point{})
      return complete(att, delivery_error::timeout,
                      "no connection to the host free within " + std::to_string(options.queue_timeout.count()) + " ms");
    complete(att, delivery_error::timeout,
             "no answer within " + std::to_string(options.timeout.count()) + " ms (" + att->phase + ")");
  }

  void park(const connection_ptr& conn) {
    auto& pool = *conn->pool;
    if (closing)
      return discard(conn);
    conn->idle_since = steady::now();
    pool.idle.push_back(conn);
    serve_waiters(pool);
  }

  // Closes `conn` and frees its slot without serving the queue.
  void drop(const connection_ptr& conn) {
    conn->close();
    if (conn->counted) {
      conn->counted = false;
      --conn->pool->open;
    }
  }

  void discard(const connection_ptr& conn) {
    drop(conn);
    serve_waiters(*conn->pool);
  }

  void complete(const attempt_ptr& att, delivery_error error, std::string detail, std::optional<int> status = {},
                std::string body = {}) {
    if (att->finished)
      return;
    att->finished = true;
    att->conn = nullptr;
    att->timer.cancel();
    in_flight.erase(att);
    webhook_answer answer;
    answer.status = status;
    answer.error = error;
    answer.detail = std::move(detail);
    answer.body = std::move(body);
    if (att->handed_over != steady::time_point{})
      answer.duration = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - att->handed_over);
    auto done = std::move(att->done);
    att->wire.clear();
    try {
      if (done)
        done(std::move(answer));
    } catch (...) {
      // `done` only hands the answer over; nothing may escape into asio.
    }
  }

  void arm_sweep() {
    auto period = std::clamp<std::chrono::milliseconds>(options.idle_timeout / 2, std::chrono::milliseconds{50},
                                                        sweep_period);
    sweep_timer.expires_after(period);
    sweep_timer.async_wait([this](error_code ec) {
      if (ec || closing)
        return;
      sweep();
      arm_sweep();
    });
  }

  // Closes stale idle connections and those beyond the idle cap that sat
  // unused for a whole period, and forgets pools with nothing in them. The
  // cap is enforced here rather than at parking so that a burst of answers
  // followed by a burst of posts reuses connections instead of churning them.
  void sweep() {
    const auto now = steady::now();
    for (auto it = pools.begin(); it != pools.end();) {
      auto& pool = it->second;
      while (!pool.idle.empty() && (now - pool.idle.front()->idle_since > options.idle_timeout ||
                                    (pool.idle.size() > options.max_idle_per_host &&
                                     now - pool.idle.front()->idle_since >= sweep_period))) {
        drop(pool.idle.front());
        pool.idle.pop_front();
      }
      if (pool.idle.empty() && pool.waiting.empty() && pool.open == 0)
        it = pools.erase(it);
      else
        ++it;
    }
  }

  void shutdown() {
    closing = true;
    sweep_timer.cancel();
    for (auto& att : std::vector<attempt_ptr>(in_flight.begin(), in_flight.end())) {
      if (att->conn)
        att->conn->close();
      complete(att, delivery_error::connect_error, "client stopped");
    }
    for (auto& [key, pool] : pools) {
      for (auto& conn : pool.idle)
        drop(conn);
      pool.idle.clear();
      pool.waiting.clear();
    }
    work.reset();
  }

  webhook_client_options options;
  std::optional<ssl::context> tls; // before ioc: streams in queued handlers refer to it; built by make_tls
  net::io_context ioc{1};
  net::executor_work_guard<net::io_context::executor_type> work;
  net::steady_timer sweep_timer;
  std::unordered_map<std::string, host_pool> pools; ///< by host:port; nodes are stable
  std::unordered_set<attempt_ptr> in_flight;
  bool closing = false;   ///< shutdown ran (client thread only)
  std::mutex mutex;       ///< guards `stopping` against posts racing stop()
  bool stopping = false;
  std::mutex stop_mutex;
  std::thread thread;
};

webhook_client::webhook_client(webhook_client_options options) : impl_(std::make_unique<impl>(std::move(options))) {}

webhook_client::~webhook_client() { stop(); }

void webhook_client::post(actors::webhook_post request, std::function<void(actors::webhook_answer)> done) {
  impl_->post(std::move(request), std::move(done));
}

void webhook_client::stop() { impl_->stop(); }

} // namespace svc::clients
