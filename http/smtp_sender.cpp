#include "http/smtp_sender.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "core/ids.hpp"

namespace svc::http {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;

// A reply longer than this is not an SMTP server talking.
constexpr std::size_t max_reply_bytes = 64 * 1024;
// What of a reply goes into an error string.
constexpr std::size_t max_reported_reply = 300;
// After the relay accepted the message, QUIT waits at most this long.
constexpr std::chrono::seconds quit_wait{1};

struct reply {
  int code = 0;
  std::vector<std::string> lines;
};

// The reply as one printable line (for logs): its lines joined by " / ".
std::string reply_text(const reply& r) {
  std::string out;
  for (auto& line : r.lines) {
    if (!out.empty())
      out += " / ";
    for (char ch : line)
      out.push_back(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? ' ' : ch);
  }
  if (out.size() > max_reported_reply)
    out = out.substr(0, max_reported_reply) + "...";
  return out;
}

// The last line of a reply says `NNN ` (or is just `NNN`); others say `NNN-`.
bool parse_reply_line(const std::string& line, int& code, bool& last) {
  if (line.size() < 3 || !std::isdigit(static_cast<unsigned char>(line[0]))
      || !std::isdigit(static_cast<unsigned char>(line[1])) || !std::isdigit(static_cast<unsigned char>(line[2])))
    return false;
  if (line.size() > 3 && line[3] != ' ' && line[3] != '-')
    return false;
  code = std::stoi(line.substr(0, 3));
  last = line.size() == 3 || line[3] == ' ';
  return true;
}

// Lines starting with '.' get another (RFC 5321 4.5.2); then the end marker.
std::string dot_stuffed(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 64 + 8);
  bool line_start = true;
  for (char ch : text) {
    if (line_start && ch == '.')
      out.push_back('.');
    out.push_back(ch);
    line_start = ch == '\n';
  }
  if (!line_start)
    out += "\r\n";
  return out + ".\r\n";
}

bool split_host_port(const std::string& host_port, std::string& host, unsigned short& port) {
  auto colon = host_port.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return false;
  host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  auto digits = host_port.substr(colon + 1);
  if (host.empty() || digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  auto n = std::stoi(digits);
  if (n < 1 || n > 65535)
    return false;
  port = static_cast<unsigned short>(n);
  return true;
}

// One SMTP connection whose every step shares one deadline: each step starts
// an asynchronous operation and runs the private io_context until it
// completes or the deadline passes (then the socket closes).
class conversation {
public:
  conversation(steady::time_point deadline, std::chrono::milliseconds timeout)
    : deadline_(deadline), timeout_(timeout) {}

  bool connect(const std::string& host_port, std::string& error) {
    std::string host;
    unsigned short port = 0;
    if (!split_host_port(host_port, host, port)) {
      error = "smtp: relay address '" + host_port + "' is not HOST:PORT";
      return false;
    }
    std::vector<tcp::endpoint> endpoints;
    error_code ec;
    auto numeric = net::ip::make_address(host, ec);
    if (!ec) {
      endpoints.emplace_back(numeric, port);
    } else {
      tcp::resolver resolver{ioc_};
      ec = run(
        [&](auto handler) {
          resolver.async_resolve(host, std::to_string(port),
                                 [&, handler](const error_code& e, const tcp::resolver::results_type& results) {
                                   for (auto& entry : results)
                                     endpoints.push_back(entry.endpoint());
                                   handler(e);
                                 });
        },
        [&] { resolver.cancel(); });
      if (ec)
        return io_failure("resolve " + host, ec, error);
    }
    ec = run([&](auto handler) {
      net::async_connect(socket_, endpoints, [handler](const error_code& e, const tcp::endpoint&) { handler(e); });
    });
    return ec ? io_failure("connect to " + host_port, ec, error) : true;
  }

  bool read_reply(const std::string& step, reply& r, std::string& error) {
    r = {};
    for (;;) {
      auto ec = run([&](auto handler) {
        net::async_read_until(socket_, net::dynamic_buffer(in_, max_reply_bytes), "\r\n",
                              [handler](const error_code& e, std::size_t) { handler(e); });
      });
      if (ec == net::error::not_found) {
        error = "smtp " + step + ": reply longer than " + std::to_string(max_reply_bytes) + " bytes";
        return false;
      }
      if (ec)
        return io_failure(step, ec, error);
      auto end = in_.find("\r\n");
      r.lines.push_back(in_.substr(0, end));
      in_.erase(0, end + 2);
      int code = 0;
      bool last = false;
      if (!parse_reply_line(r.lines.back(), code, last) || (r.code != 0 && code != r.code)) {
        error = "smtp " + step + ": malformed reply: " + reply_text(r);
        return false;
      }
      r.code = code;
      if (last)
        return true;
    }
  }

  bool write(const std::string& step, const std::string& data, std::string& error) {
    auto ec = run([&](auto handler) {
      net::async_write(socket_, net::buffer(data), [handler](const error_code& e, std::size_t) { handler(e); });
    });
    return ec ? io_failure(step, ec, error) : true;
  }

  /// Sends `line` + CRLF and reads the reply.
  bool command(const std::string& step, const std::string& line, reply& r, std::string& error) {
    return write(step, line + "\r\n", error) && read_reply(step, r, error);
  }

  /// Our name for EHLO/HELO: the address literal of our end of the connection.
  std::string local_domain() {
    error_code ec;
    auto addr = socket_.local_endpoint(ec).address();
    if (ec)
      return "[127.0.0.1]";
    return addr.is_v6() ? "[IPv6:" + addr.to_string() + "]" : "[" + addr.to_string() + "]";
  }

  /// Shortens the deadline (never lengthens it).
  void limit(std::chrono::steady_clock::duration d) { deadline_ = std::min(deadline_, steady::now() + d); }

  void close() {
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

private:
  // Starts an operation (`start(handler)`, the handler taking an error_code)
  // and runs it to completion or the deadline; past the deadline `cancel`
  // runs, the socket closes and the result is `timed_out`.
  template <class Start, class Cancel>
  error_code run(Start&& start, Cancel&& cancel) {
    bool done = false;
    error_code result;
    start([&](const error_code& e) {
      result = e;
      done = true;
    });
    ioc_.restart();
    ioc_.run_until(deadline_);
    if (done)
      return result;
    cancel();
    close();
    ioc_.restart();
    ioc_.run(); // the cancelled operation completes with operation_aborted
    return net::error::timed_out;
  }

  template <class Start>
  error_code run(Start&& start) {
    return run(std::forward<Start>(start), [] {});
  }

  bool io_failure(const std::string& step, const error_code& ec, std::string& error) const {
    error = "smtp " + step + ": "
            + (ec == net::error::timed_out ? "timed out after " + std::to_string(timeout_.count()) + "ms" : ec.message());
    return false;
  }

  net::io_context ioc_{1};
  tcp::socket socket_{ioc_};
  std::string in_;
  steady::time_point deadline_;
  std::chrono::milliseconds timeout_;
};

std::string refused(const std::string& step, const reply& r) { return "smtp " + step + ": " + reply_text(r); }

// Whether an EHLO reply lists the extension `name` (a line `250-NAME ...`).
bool has_extension(const reply& r, const std::string& name) {
  for (std::size_t i = 1; i < r.lines.size(); ++i) {
    if (r.lines[i].size() <= 4)
      continue;
    auto keyword = r.lines[i].substr(4, r.lines[i].find(' ', 4) - 4);
    std::transform(keyword.begin(), keyword.end(), keyword.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (keyword == name)
      return true;
  }
  return false;
}

} // namespace

std::string mail_address(std::string_view field) {
  auto addr = field;
  auto open = field.rfind('<');
  if (open != std::string_view::npos) {
    auto close = field.find('>', open);
    if (close == std::string_view::npos)
      return {};
    addr = field.substr(open + 1, close - open - 1);
  }
  while (!addr.empty() && (addr.front() == ' ' || addr.front() == '\t'))
    addr.remove_prefix(1);
  while (!addr.empty() && (addr.back() == ' ' || addr.back() == '\t'))
    addr.remove_suffix(1);
  for (char ch : addr) {
    auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f || ch == '<' || ch == '>')
      return {};
  }
  return std::string{addr};
}

smtp_sender::smtp_sender(std::string host_port, std::chrono::milliseconds timeout,
                         std::shared_ptr<const core::clock> clock)
  : host_port_(std::move(host_port)), timeout_(timeout), clock_(std::move(clock)) {}

std::string smtp_sender::send(const core::mail_message& m) {
  auto from = mail_address(m.from);
  auto to = mail_address(m.to);
  if (from.empty())
    return "smtp: no usable sender address in '" + m.from + "'";
  if (to.empty())
    return "smtp: no usable recipient address in '" + m.to + "'";
  auto now = clock_->now();
  auto text = core::format_rfc5322(m, now, core::make_ulid(now));

  conversation c{steady::now() + timeout_, timeout_};
  std::string error;
  reply r;
  if (!c.connect(host_port_, error) || !c.read_reply("greeting", r, error))
    return error;
  // A refusal still ends politely, with a short QUIT.
  auto refuse = [&](const std::string& step) {
    auto reason = refused(step, r);
    std::string ignored;
    c.limit(quit_wait);
    c.command("QUIT", "QUIT", r, ignored);
    return reason;
  };
  if (r.code != 220)
    return refuse("greeting");
  auto domain = c.local_domain();
  if (!c.command("EHLO", "EHLO " + domain, r, error))
    return error;
  bool eight_bit = r.code == 250 && has_extension(r, "8BITMIME");
  if (r.code != 250) { // an RFC 821 server: say HELO instead
    if (!c.command("HELO", "HELO " + domain, r, error))
      return error;
    if (r.code != 250)
      return refuse("HELO");
  }
  if (!c.command("MAIL FROM", "MAIL FROM:<" + from + ">" + (eight_bit ? " BODY=8BITMIME" : ""), r, error))
    return error;
  if (r.code != 250)
    return refuse("MAIL FROM");
  if (!c.command("RCPT TO", "RCPT TO:<" + to + ">", r, error))
    return error;
  if (r.code != 250 && r.code != 251)
    return refuse("RCPT TO");
  if (!c.command("DATA", "DATA", r, error))
    return error;
  if (r.code != 354)
    return refuse("DATA");
  if (!c.write("message", dot_stuffed(text), error) || !c.read_reply("message", r, error))
    return error;
  if (r.code != 250)
    return refuse("message");
  // Accepted: the message is the relay's now, whatever QUIT answers.
  c.limit(quit_wait);
  c.command("QUIT", "QUIT", r, error);
  c.close();
  return {};
}

} // namespace svc::http
