#include "support/svcctl_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdexcept>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "support/json_util.hpp"
#include "support/process.hpp"

#ifndef SVC_SVCCTL_PATH
#error "SVC_SVCCTL_PATH must name the svcctl binary"
#endif

namespace svc::e2e {
namespace {

boost::json::value parse_or_null(const std::string& text) {
  boost::system::error_code ec;
  auto v = boost::json::parse(text, ec);
  if (ec)
    return nullptr;
  return v;
}

} // namespace

svcctl_result run_svcctl(const std::string& data_dir, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout) {
  std::vector<std::string> argv{SVC_SVCCTL_PATH, "--data-dir", data_dir};
  argv.insert(argv.end(), args.begin(), args.end());
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  pid_t pid = spawn(argv, out_pipe[1], err_pipe[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  svcctl_result r;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  bool timed_out = false;
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0)
      continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char buf[4096];
      auto n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0)
      ::close(f.fd);
  if (timed_out)
    ::kill(pid, SIGKILL);
  auto status = wait_exit(pid, std::chrono::seconds{5});
  if (!status) {
    ::kill(pid, SIGKILL);
    status = wait_exit(pid, std::chrono::seconds{5});
  }
  r.exit_code = timed_out ? -1 : status.value_or(-1);
  r.out_json = parse_or_null(r.out);
  r.err_json = parse_or_null(r.err);
  return r;
}

boost::json::value run_svcctl_ok(const std::string& data_dir, const std::vector<std::string>& args) {
  auto r = run_svcctl(data_dir, args);
  if (r.exit_code != 0 || r.out_json.is_null()) {
    std::string cmd;
    for (auto& a : args)
      cmd += " " + a;
    throw std::runtime_error("svcctl" + cmd + " failed (exit " + std::to_string(r.exit_code) + "): stdout=" + r.out
                             + " stderr=" + r.err);
  }
  return r.out_json;
}

void check_not_found(const svcctl_result& r, const std::string& what) {
  BOOST_TEST_CONTEXT(what) {
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(json_str(r.err_json, "error.code") == "resource_not_found", r.err);
  }
}

} // namespace svc::e2e
