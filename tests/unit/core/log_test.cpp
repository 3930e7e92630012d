#include "core/log.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fcntl.h>
#include <unistd.h>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(core_log)

namespace {

using namespace svc::core;

const char* now = "2026-11-25T09:00:00.000Z";

} // namespace

BOOST_AUTO_TEST_CASE(a_text_line_appends_fields_as_key_value) {
  log_fields f{{"status", "201"}, {"route", "/v1/images/{id}"}, {"team", ""}};
  BOOST_TEST(format_log_line(log_format::text, now, log_level::info, "access", "POST /v1/images 201", f)
             == "2026-11-25T09:00:00.000Z info access: POST /v1/images 201 status=201 route=/v1/images/{id} team=\"\"");
}

BOOST_AUTO_TEST_CASE(a_text_field_cannot_forge_a_line_or_a_field) {
  log_fields f{{"peer", "1.2.3.4\n2026 error x: forged"}, {"id", "a b=\"c\""}};
  auto line = format_log_line(log_format::text, now, log_level::warn, "http", "m", f);
  BOOST_TEST(line.find('\n') == std::string::npos);
  BOOST_TEST(line.find("peer=\"1.2.3.4?2026 error x: forged\"") != std::string::npos, line);
  BOOST_TEST(line.find("id=\"a b=\\\"c\\\"\"") != std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(a_text_message_cannot_forge_a_line) {
  auto line = format_log_line(log_format::text, now, log_level::warn, "cluster",
                              "node n2\r\n2026-11-25T09:00:00.000Z error ledger: forged", {});
  BOOST_TEST(line.find('\n') == std::string::npos);
  BOOST_TEST(line.find('\r') == std::string::npos);
  BOOST_TEST(line == "2026-11-25T09:00:00.000Z warn cluster: node n2??2026-11-25T09:00:00.000Z error ledger: forged");
}

BOOST_AUTO_TEST_CASE(a_json_line_is_one_object_with_every_field) {
  log_fields f{{"status", "201"}, {"peer", "x\ny\"z"}};
  auto line = format_log_line(log_format::json, now, log_level::error, "access", "quote \" newline \n", f);
  BOOST_TEST(line.find('\n') == std::string::npos);
  auto v = boost::json::parse(line).as_object();
  BOOST_TEST(v.at("time").as_string() == now);
  BOOST_TEST(v.at("level").as_string() == "error");
  BOOST_TEST(v.at("component").as_string() == "access");
  BOOST_TEST(v.at("message").as_string() == "quote \" newline \n");
  BOOST_TEST(v.at("status").as_string() == "201");
  BOOST_TEST(v.at("peer").as_string() == "x\ny\"z");
}

namespace {

// Stderr redirected into a pipe for the life of a test case, read without blocking.
struct captured_stderr {
  int pipe_fds[2]{};
  int saved = -1;
  captured_stderr() {
    BOOST_REQUIRE(::pipe(pipe_fds) == 0);
    ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    BOOST_REQUIRE(::fcntl(pipe_fds[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 20)); // a full buffer fits
    saved = ::dup(STDERR_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
  }
  ~captured_stderr() {
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
  }
  std::string written() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;)
      out.append(buf, static_cast<std::size_t>(n));
    return out;
  }
};

std::size_t lines_in(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

} // namespace

BOOST_AUTO_TEST_CASE(buffered_lines_wait_for_a_flush_and_come_out_whole_in_order) {
  captured_stderr err;
  BOOST_TEST(svc::core::log_buffered(log_level::info, "access", "GET /a 200"));  // the buffer was empty
  BOOST_TEST(!svc::core::log_buffered(log_level::info, "access", "GET /b 200")); // a flush is on its way
  BOOST_TEST(err.written().empty());
  svc::core::flush_log_buffer();
  auto out = err.written();
  BOOST_TEST(lines_in(out) == 2u);
  BOOST_TEST(out.find("GET /a 200") < out.find("GET /b 200"));
  svc::core::flush_log_buffer(); // nothing left: writes nothing
  BOOST_TEST(err.written().empty());
}

BOOST_AUTO_TEST_CASE(an_unbuffered_line_never_overtakes_a_buffered_one) {
  captured_stderr err;
  svc::core::log_buffered(log_level::info, "access", "GET /first 200");
  svc::core::log(log_level::warn, "http", "second");
  auto out = err.written();
  BOOST_TEST(lines_in(out) == 2u);
  BOOST_TEST(out.find("GET /first 200") < out.find("second"));
}

BOOST_AUTO_TEST_CASE(a_full_buffer_is_written_at_once) {
  captured_stderr err;
  std::string message(1000, 'x');
  std::size_t written = 0;
  for (int i = 0; i < 100 && written == 0; ++i) { // 64 KiB is reached within 66 lines of ~1 KiB
    svc::core::log_buffered(log_level::info, "access", message);
    written = lines_in(err.written());
  }
  BOOST_TEST(written > 0u);
  svc::core::flush_log_buffer();
  err.written();
}

BOOST_AUTO_TEST_CASE(a_buffered_line_below_the_level_is_dropped) {
  captured_stderr err;
  svc::core::set_log_level("warn");
  BOOST_TEST(!svc::core::log_buffered(log_level::info, "access", "GET /quiet 200"));
  svc::core::flush_log_buffer();
  svc::core::set_log_level("info");
  BOOST_TEST(err.written().empty());
}

BOOST_AUTO_TEST_SUITE_END()
