#include "support/smtp_relay.hpp"

#include <array>
#include <condition_variable>
#include <mutex>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/detail/base64.hpp>

#include "tests/support/loopback_listener.hpp"

namespace svc::e2e {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::chrono::milliseconds greeting_trickle{100};

std::string base64_decode(const std::string& text) {
  namespace b64 = boost::beast::detail::base64;
  std::string out(b64::decoded_size(text.size()), '\0');
  // Stops at the padding or at the first character that is not base64.
  out.resize(b64::decode(out.data(), text.data(), text.size()).first);
  return out;
}

std::string verb_of(const std::string& line) {
  auto verb = line.substr(0, line.find_first_of(" :"));
  for (auto& c : verb)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return verb;
}

} // namespace

struct smtp_relay::impl {
  // Where an AUTH exchange stands: the next line is credentials, not a command.
  enum class auth_step { none, plain, login_user, login_password };

  // One connection, treated as the relay behaved when it was accepted.
  struct session {
    session(tcp::socket s, relay_behaviour b) : socket(std::move(s)), timer(socket.get_executor()), behaviour(b) {}
    tcp::socket socket;
    std::unique_ptr<ssl::stream<tcp::socket&>> tls; ///< once TLS is on
    net::steady_timer timer;
    relay_behaviour behaviour;
    std::string in;
    std::string message;
    bool in_data = false;
    bool authenticated = false;
    auth_step auth = auth_step::none;
    std::string login_user;
  };
  using session_ptr = std::shared_ptr<session>;

  explicit impl(relay_security sec) : security(std::move(sec)) {
    if (security.tls != relay_tls::none) {
      tls_context.use_certificate_chain(net::buffer(security.identity.cert));
      tls_context.use_private_key(net::buffer(security.identity.key), ssl::context::pem);
    }
  }

  // Runs `f` on the connection's stream: the TLS stream once there is one.
  template <class F>
  static void on_stream(const session_ptr& s, F&& f) {
    if (s->tls)
      f(*s->tls);
    else
      f(s->socket);
  }

  void accept() {
    listener.acceptor.async_accept([this](error_code ec, tcp::socket socket) {
      if (ec)
        return;
      relay_behaviour b;
      {
        std::lock_guard lock(mutex);
        b = behaviour;
        ++connections;
      }
      cv.notify_all();
      auto s = std::make_shared<session>(std::move(socket), b);
      live.push_back(s);
      if (security.tls == relay_tls::implicit)
        handshake(s, [this, s] { start(s); });
      else
        start(s);
      accept();
    });
  }

  template <class Then>
  void handshake(const session_ptr& s, Then then) {
    s->tls = std::make_unique<ssl::stream<tcp::socket&>>(s->socket, tls_context);
    s->tls->async_handshake(ssl::stream_base::server, [this, s, then](error_code ec) {
      if (ec)
        return;
      {
        std::lock_guard lock(mutex);
        ++tls_ok;
      }
      then();
    });
  }

  void start(const session_ptr& s) {
    switch (s->behaviour) {
    case relay_behaviour::never_greets:
      return stall(s);
    case relay_behaviour::endless_greeting:
      return trickle(s);
    case relay_behaviour::takes_mail:
    case relay_behaviour::stalls_after_data:
      return say(s, "220 relay.test ESMTP\r\n");
    }
  }

  // What EHLO offers: STARTTLS before TLS, AUTH only once TLS is on (or when
  // the relay needs no TLS at all).
  std::string ehlo_reply(const session_ptr& s) const {
    std::vector<std::string> lines{"relay.test", "8BITMIME"};
    if (security.tls == relay_tls::starttls && !s->tls)
      lines.push_back("STARTTLS");
    if (!security.user.empty() && (s->tls || security.tls == relay_tls::none))
      lines.push_back("AUTH " + security.mechanisms);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
      out += (i + 1 < lines.size() ? "250-" : "250 ") + lines[i] + "\r\n";
    return out;
  }

  bool tls_missing(const session_ptr& s) const { return security.tls != relay_tls::none && !s->tls; }

  // The reply to a command line; empty when the session answers itself.
  std::string reply_to(const session_ptr& s, const std::string& line) {
    auto verb = verb_of(line);
    if (verb == "EHLO")
      return ehlo_reply(s);
    if (verb == "HELO")
      return "250 ok\r\n";
    if (verb == "AUTH")
      return start_auth(s, line);
    if (verb == "MAIL" || verb == "RCPT" || verb == "DATA") {
      if (tls_missing(s))
        return "530 5.7.0 Must issue a STARTTLS command first\r\n";
      if (!security.user.empty() && !s->authenticated)
        return "530 5.7.0 Authentication required\r\n";
      if (verb == "DATA") {
        s->in_data = true;
        return "354 end with <CRLF>.<CRLF>\r\n";
      }
      return "250 ok\r\n";
    }
    if (verb == "QUIT")
      return "221 bye\r\n";
    return "500 unknown command\r\n";
  }

  std::string start_auth(const session_ptr& s, const std::string& line) {
    if (!s->tls) {
      std::lock_guard lock(mutex);
      ++clear_auth;
    }
    if (security.user.empty())
      return "502 5.5.1 AUTH not offered\r\n";
    if (tls_missing(s))
      return "538 5.7.11 Encryption required for requested authentication mechanism\r\n";
    auto rest = line.size() > 5 ? line.substr(5) : std::string{};
    auto mechanism = verb_of(rest);
    auto initial = rest.find(' ') == std::string::npos ? std::string{} : rest.substr(rest.find(' ') + 1);
    if (mechanism == "PLAIN" && security.mechanisms.find("PLAIN") != std::string::npos) {
      if (!initial.empty())
        return check_plain(s, initial);
      s->auth = auth_step::plain;
      return "334 \r\n";
    }
    if (mechanism == "LOGIN" && security.mechanisms.find("LOGIN") != std::string::npos) {
      s->auth = auth_step::login_user;
      return "334 VXNlcm5hbWU6\r\n"; // "Username:"
    }
    return "504 5.5.4 mechanism not supported\r\n";
  }

  // PLAIN's credentials: authzid NUL user NUL password, base64.
  std::string check_plain(const session_ptr& s, const std::string& b64) {
    auto decoded = base64_decode(b64);
    auto first = decoded.find('\0');
    auto second = first == std::string::npos ? first : decoded.find('\0', first + 1);
    if (second == std::string::npos)
      return verdict(s, false);
    return verdict(s, decoded.substr(first + 1, second - first - 1) == security.user
                        && decoded.substr(second + 1) == security.password);
  }

  std::string continue_auth(const session_ptr& s, const std::string& line) {
    auto step = s->auth;
    s->auth = auth_step::none;
    if (line == "*")
      return "501 5.7.0 authentication cancelled\r\n";
    switch (step) {
    case auth_step::plain:
      return check_plain(s, line);
    case auth_step::login_user:
      s->login_user = base64_decode(line);
      s->auth = auth_step::login_password;
      return "334 UGFzc3dvcmQ6\r\n"; // "Password:"
    case auth_step::login_password:
      return verdict(s, s->login_user == security.user && base64_decode(line) == security.password);
    case auth_step::none:
      break;
    }
    return "503 5.5.1 bad sequence\r\n";
  }

  std::string verdict(const session_ptr& s, bool right) {
    {
      std::lock_guard lock(mutex);
      ++(right ? logins : refused);
    }
    s->authenticated = right;
    return right ? "235 2.7.0 Authentication successful\r\n" : "535 5.7.8 Authentication credentials invalid\r\n";
  }

  void say(const session_ptr& s, std::string text) {
    auto bytes = std::make_shared<std::string>(std::move(text));
    on_stream(s, [&](auto& stream) {
      net::async_write(stream, net::buffer(*bytes), [this, s, bytes](error_code ec, std::size_t) {
        if (!ec)
          read_line(s);
      });
    });
  }

  // STARTTLS: the go-ahead in clear, then the handshake; what was said
  // before it is forgotten (RFC 3207), so the client says EHLO again.
  void start_tls(const session_ptr& s) {
    auto bytes = std::make_shared<std::string>("220 2.0.0 Ready to start TLS\r\n");
    net::async_write(s->socket, net::buffer(*bytes), [this, s, bytes](error_code ec, std::size_t) {
      if (ec)
        return;
      s->in.clear();
      s->authenticated = false;
      handshake(s, [this, s] { read_line(s); });
    });
  }

  void read_line(const session_ptr& s) {
    on_stream(s, [&](auto& stream) {
      net::async_read_until(stream, net::dynamic_buffer(s->in), "\r\n", [this, s](error_code ec, std::size_t n) {
        if (!ec)
          on_line(s, n);
      });
    });
  }

  void on_line(const session_ptr& s, std::size_t n) {
    auto line = s->in.substr(0, n - 2);
    s->in.erase(0, n);
    if (s->auth != auth_step::none)
      return say(s, continue_auth(s, line));
    if (!s->in_data) {
      auto verb = verb_of(line);
      if (verb == "QUIT")
        return say_and_close(s, reply_to(s, line));
      if (verb == "STARTTLS" && security.tls == relay_tls::starttls && !s->tls)
        return start_tls(s);
      return say(s, reply_to(s, line));
    }
    if (line != ".") {
      s->message += (line.rfind('.', 0) == 0 ? line.substr(1) : line) + "\r\n";
      return read_line(s);
    }
    s->in_data = false;
    {
      std::lock_guard lock(mutex);
      messages.push_back(s->message);
    }
    s->message.clear();
    cv.notify_all();
    if (s->behaviour == relay_behaviour::stalls_after_data)
      return stall(s);
    say(s, "250 queued\r\n");
  }

  void say_and_close(const session_ptr& s, std::string text) {
    auto bytes = std::make_shared<std::string>(std::move(text));
    on_stream(s, [&](auto& stream) {
      net::async_write(stream, net::buffer(*bytes), [s, bytes](error_code, std::size_t) {
        error_code ignored;
        s->socket.close(ignored);
      });
    });
  }

  // Reads and drops what comes, answers nothing, until the client closes.
  void stall(const session_ptr& s) {
    auto scratch = std::make_shared<std::array<char, 1024>>();
    on_stream(s, [&](auto& stream) {
      stream.async_read_some(net::buffer(*scratch), [this, s, scratch](error_code ec, std::size_t) {
        if (!ec)
          return stall(s);
        {
          std::lock_guard lock(mutex);
          ++closed_stalled;
        }
        cv.notify_all();
      });
    });
  }

  void trickle(const session_ptr& s) {
    static const std::string line = "220-relay.test is still warming up\r\n";
    on_stream(s, [&](auto& stream) {
      net::async_write(stream, net::buffer(line), [this, s](error_code ec, std::size_t) {
        if (ec) {
          std::lock_guard lock(mutex);
          ++closed_stalled;
          return;
        }
        s->timer.expires_after(greeting_trickle);
        s->timer.async_wait([this, s](error_code ec) {
          if (!ec)
            trickle(s);
        });
      });
    });
  }

  template <class Pred>
  bool wait(std::chrono::milliseconds timeout, Pred pred) const {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, timeout, pred);
  }

  std::size_t count(const std::size_t& counter) const {
    std::lock_guard lock(mutex);
    return counter;
  }

  const relay_security security;
  mutable std::mutex mutex; ///< guards what follows up to the io_context
  mutable std::condition_variable cv;
  relay_behaviour behaviour = relay_behaviour::takes_mail;
  std::size_t connections = 0;
  std::size_t closed_stalled = 0;
  std::size_t tls_ok = 0;
  std::size_t logins = 0;
  std::size_t refused = 0;
  std::size_t clear_auth = 0;
  std::vector<std::string> messages;

  ssl::context tls_context{ssl::context::tls_server};
  std::vector<std::weak_ptr<session>> live; ///< the io thread's alone
  test::loopback_listener listener; // after everything its handlers use
};

smtp_relay::smtp_relay(relay_behaviour behaviour, relay_security security)
  : impl_(std::make_unique<impl>(std::move(security))) {
  impl_->behaviour = behaviour;
  impl_->accept();
  impl_->listener.start();
}

smtp_relay::~smtp_relay() { stop(); }

std::string smtp_relay::address() const { return "127.0.0.1:" + std::to_string(impl_->listener.port); }

void smtp_relay::set_behaviour(relay_behaviour behaviour) {
  std::lock_guard lock(impl_->mutex);
  impl_->behaviour = behaviour;
}

std::size_t smtp_relay::connections() const { return impl_->count(impl_->connections); }

std::size_t smtp_relay::closed_while_stalled() const { return impl_->count(impl_->closed_stalled); }

std::size_t smtp_relay::tls_sessions() const { return impl_->count(impl_->tls_ok); }

std::size_t smtp_relay::logins() const { return impl_->count(impl_->logins); }

std::size_t smtp_relay::refused_logins() const { return impl_->count(impl_->refused); }

std::size_t smtp_relay::auth_in_clear() const { return impl_->count(impl_->clear_auth); }

std::vector<std::string> smtp_relay::messages() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->messages;
}

bool smtp_relay::wait_for_connections(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->connections >= n; });
}

bool smtp_relay::wait_for_messages(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->messages.size() >= n; });
}

void smtp_relay::stop() {
  impl_->listener.stop([i = impl_.get()] {
    error_code ignored;
    for (auto& w : i->live)
      if (auto s = w.lock()) {
        s->timer.cancel();
        s->socket.close(ignored);
      }
  });
}

} // namespace svc::e2e
