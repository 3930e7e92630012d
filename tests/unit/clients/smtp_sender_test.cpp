#include "clients/smtp_sender.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "core/mail.hpp"

BOOST_AUTO_TEST_SUITE(clients_smtp_sender)

namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using svc::clients::mail_address;
using svc::clients::smtp_sender;
using namespace std::chrono_literals;

constexpr int64_t sunset_ms = 1785801600000; // 2026-08-04T00:00:00Z

struct fixed_clock final : svc::core::clock {
  svc::core::time_point now() const override { return svc::core::from_unix_ms(sunset_ms); }
};

// A one-connection SMTP server on 127.0.0.1:<ephemeral> in its own thread:
// answers each command by its verb (overridable, `.` = end of the message
// data), records the command lines and the raw data lines. `silent` accepts
// and says nothing. It hangs up on a client quiet for `hang_up_after`: the
// yardstick the timeout tests hold the sender's deadline against.
class fake_smtp {
public:
  std::map<std::string, std::string> replies{
    {"greeting", "220 fake.test ESMTP"},
    {"EHLO", "250-fake.test greets you\r\n250-8BITMIME\r\n250 SIZE 1000000"},
    {"HELO", "250 fake.test"},
    {"MAIL", "250 2.1.0 ok"},
    {"RCPT", "250 2.1.5 ok"},
    {"DATA", "354 end with <CRLF>.<CRLF>"},
    {".", "250 2.0.0 queued as 42"},
    {"QUIT", "221 2.0.0 bye"},
  };
  bool silent = false;
  std::chrono::milliseconds hang_up_after{60s};

  fake_smtp() : acceptor_{ioc_, {net::ip::make_address("127.0.0.1"), 0}} {}

  ~fake_smtp() {
    // Wakes a server still blocked in accept or read (a failed test).
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
    if (int fd = socket_fd_.load(); fd >= 0)
      ::shutdown(fd, SHUT_RDWR);
    if (thread_.joinable())
      thread_.join();
  }

  /// Starts serving one connection; returns `127.0.0.1:PORT`.
  std::string start() {
    thread_ = std::thread{[this] { serve(); }};
    return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }

  /// Waits until the client closed the connection (the server thread ended).
  void join() { thread_.join(); }

  std::vector<std::string> commands() {
    std::lock_guard<std::mutex> lock{mutex_};
    return commands_;
  }
  std::vector<std::string> data_lines() {
    std::lock_guard<std::mutex> lock{mutex_};
    return data_;
  }

private:
  void serve() {
    boost::system::error_code ec;
    tcp::socket socket{ioc_};
    acceptor_.accept(socket, ec);
    if (ec)
      return;
    socket_fd_ = socket.native_handle();
    if (!silent)
      say(socket, replies["greeting"]);
    bool in_data = false;
    std::string buffer;
    for (;;) {
      if (buffer.find("\r\n") == std::string::npos && !client_speaks(socket))
        break;
      auto n = net::read_until(socket, net::dynamic_buffer(buffer), "\r\n", ec);
      if (ec)
        break;
      auto line = buffer.substr(0, n - 2);
      buffer.erase(0, n);
      if (silent)
        continue;
      std::lock_guard<std::mutex> lock{mutex_};
      if (in_data) {
        if (line == ".") {
          in_data = false;
          say(socket, replies["."]);
        } else {
          data_.push_back(line);
        }
        continue;
      }
      commands_.push_back(line);
      auto verb = line.substr(0, line.find_first_of(" :"));
      auto reply = replies.count(verb) ? replies[verb] : "500 5.5.1 unknown command";
      say(socket, reply);
      in_data = verb == "DATA" && reply.rfind("354", 0) == 0;
    }
    socket_fd_ = -1;
  }

  // Whether the client sends something (or closes) within `hang_up_after`.
  bool client_speaks(tcp::socket& socket) const {
    pollfd p{socket.native_handle(), POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(hang_up_after.count())) != 0;
  }

  // An empty reply is silence: the relay takes what comes and says nothing.
  static void say(tcp::socket& socket, const std::string& reply) {
    if (reply.empty())
      return;
    boost::system::error_code ec;
    net::write(socket, net::buffer(reply + "\r\n"), ec);
  }

  net::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::atomic<int> socket_fd_{-1};
  std::mutex mutex_;
  std::vector<std::string> commands_, data_;
};

svc::core::mail_message sample() {
  return {"Svc <noreply@svc.test>", "Owner <owner@acme.test>", "Webhook endpoint disabled",
          "Hello,\n.hidden line\n..two dots\n.\nend\n"};
}

// A sender to plain `HOST:PORT`, as `--smtp 127.0.0.1:PORT` makes.
smtp_sender sender_for(const std::string& address, std::chrono::milliseconds timeout = 5s) {
  svc::clients::smtp_options o;
  o.relay = *svc::core::parse_smtp_url(address);
  o.timeout = timeout;
  return smtp_sender{o, std::make_shared<fixed_clock>()};
}

// The message as the relay stores it: data lines joined, dot-stuffing undone.
std::string unstuffed(const std::vector<std::string>& lines) {
  std::string out;
  for (auto& line : lines)
    out += (line.rfind('.', 0) == 0 ? line.substr(1) : line) + "\r\n";
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(mail_address_takes_the_bare_address) {
  BOOST_TEST(mail_address("Svc <noreply@svc.test>") == "noreply@svc.test");
  BOOST_TEST(mail_address("\"Ops, <Acme>\" <ops@acme.test>") == "ops@acme.test");
  BOOST_TEST(mail_address("  owner@acme.test ") == "owner@acme.test");
  BOOST_TEST(mail_address("< owner@acme.test >") == "owner@acme.test");
  BOOST_TEST(mail_address("Name <unterminated@acme.test") == "");
  BOOST_TEST(mail_address("") == "");
  BOOST_TEST(mail_address("a b@acme.test") == "");
  BOOST_TEST(mail_address("owner@acme.test\r\nRCPT TO:other@evil.test") == "");
  BOOST_TEST(mail_address("x <owner@acme.test>\r\n") == "owner@acme.test");
}

BOOST_AUTO_TEST_CASE(sends_a_message_through_the_whole_conversation) {
  fake_smtp server;
  auto address = server.start();
  auto m = sample();
  BOOST_TEST(sender_for(address).send(m) == "");
  server.join();

  // libcurl names us by the host name, and states the size the relay's SIZE asks for.
  auto size = std::to_string(unstuffed(server.data_lines()).size());
  auto commands = server.commands();
  BOOST_REQUIRE(commands.size() == 5u);
  BOOST_TEST(commands[0].rfind("EHLO ", 0) == 0u, commands[0]);
  std::vector<std::string> rest(commands.begin() + 1, commands.end());
  std::vector<std::string> expected{"MAIL FROM:<noreply@svc.test> SIZE=" + size, "RCPT TO:<owner@acme.test>", "DATA",
                                    "QUIT"};
  BOOST_TEST(rest == expected, boost::test_tools::per_element());

  auto data = server.data_lines();
  BOOST_REQUIRE(data.size() > 5u);
  std::vector<std::string> tail(data.end() - 5, data.end());
  std::vector<std::string> stuffed{"Hello,", "..hidden line", "...two dots", "..", "end"};
  BOOST_TEST(tail == stuffed, boost::test_tools::per_element());

  auto text = unstuffed(data);
  auto id_at = text.find("Message-ID: <");
  BOOST_REQUIRE(id_at != std::string::npos);
  auto id = text.substr(id_at + 13, text.find("@svc>", id_at) - id_at - 13);
  BOOST_TEST(text == svc::core::format_rfc5322(m, svc::core::from_unix_ms(sunset_ms), id));
}

BOOST_AUTO_TEST_CASE(falls_back_to_helo_when_ehlo_is_refused) {
  fake_smtp server;
  server.replies["EHLO"] = "502 5.5.2 what?";
  auto address = server.start();
  BOOST_TEST(sender_for(address).send(sample()) == "");
  server.join();
  auto commands = server.commands();
  BOOST_REQUIRE(commands.size() == 6u);
  BOOST_TEST(commands[0].rfind("EHLO ", 0) == 0u, commands[0]);
  BOOST_TEST(commands[1] == "HELO " + commands[0].substr(5));
  std::vector<std::string> rest(commands.begin() + 2, commands.end());
  std::vector<std::string> expected{"MAIL FROM:<noreply@svc.test>", "RCPT TO:<owner@acme.test>", "DATA", "QUIT"};
  BOOST_TEST(rest == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_refused_recipient_names_the_step_and_the_reply_and_sends_no_data) {
  fake_smtp server;
  server.replies["RCPT"] = "550 5.1.1 <owner@acme.test>: Recipient address rejected";
  auto address = server.start();
  auto error = sender_for(address).send(sample());
  server.join();
  BOOST_TEST(error == "smtp RCPT TO: 550 5.1.1 <owner@acme.test>: Recipient address rejected");
  auto commands = server.commands();
  BOOST_REQUIRE(commands.size() == 4u);
  BOOST_TEST(commands[2] == "RCPT TO:<owner@acme.test>");
  BOOST_TEST(commands[3] == "QUIT");
  BOOST_TEST(server.data_lines().empty());
}

BOOST_AUTO_TEST_CASE(refusals_at_other_steps_name_them_with_every_reply_line) {
  {
    fake_smtp server;
    server.replies["greeting"] = "554-fake.test no service\r\n554 go away";
    auto error = sender_for(server.start()).send(sample());
    server.join();
    BOOST_TEST(error == "smtp greeting: 554-fake.test no service / 554 go away");
  }
  {
    fake_smtp server;
    server.replies["MAIL"] = "451 4.3.0 try later";
    auto error = sender_for(server.start()).send(sample());
    server.join();
    BOOST_TEST(error == "smtp MAIL FROM: 451 4.3.0 try later");
  }
  {
    fake_smtp server;
    server.replies["."] = "552 5.3.4 message too big";
    auto error = sender_for(server.start()).send(sample());
    server.join();
    BOOST_TEST(error == "smtp message: 552 5.3.4 message too big");
  }
  {
    fake_smtp server;
    server.replies["greeting"] = "hello there"; // no reply at all to libcurl: it waits for one
    auto error = sender_for(server.start(), 300ms).send(sample());
    BOOST_TEST(error == "smtp greeting: timed out after 300ms");
  }
}

BOOST_AUTO_TEST_CASE(a_closed_port_is_a_connect_error) {
  net::io_context ioc;
  tcp::acceptor probe{ioc, {net::ip::make_address("127.0.0.1"), 0}};
  auto address = "127.0.0.1:" + std::to_string(probe.local_endpoint().port());
  probe.close();
  auto error = sender_for(address).send(sample());
  BOOST_TEST(error.rfind("smtp connect to " + address + ": ", 0) == 0u, error);
  BOOST_TEST(error.find("connect to server") != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(a_silent_relay_times_out_within_the_deadline) {
  fake_smtp server;
  server.silent = true;
  server.hang_up_after = 5s; // a deadline not kept sees the hang-up instead
  auto address = server.start();
  auto started = std::chrono::steady_clock::now();
  auto error = sender_for(address, 200ms).send(sample());
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST(error == "smtp greeting: timed out after 200ms");
  BOOST_TEST((took >= 190ms));
}

// libcurl alone would wait minutes for this reply (its server response
// timeout); the deadline covers it like every other step.
BOOST_AUTO_TEST_CASE(a_relay_that_never_confirms_the_message_times_out_within_the_deadline) {
  fake_smtp server;
  server.replies["."] = "";
  server.hang_up_after = 5s; // a deadline not kept sees the hang-up instead
  auto address = server.start();
  auto error = sender_for(address, 300ms).send(sample());
  BOOST_TEST(error == "smtp message: timed out after 300ms");
  server.join(); // the sender closed the connection
}

BOOST_AUTO_TEST_CASE(bad_addresses_fail_before_connecting) {
  auto m = sample();
  m.to = "no address <>";
  BOOST_TEST(sender_for("127.0.0.1:25").send(m) == "smtp: no usable recipient address in 'no address <>'");
}

BOOST_AUTO_TEST_SUITE_END()
