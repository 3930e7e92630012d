#include "support/svcd_process.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <signal.h>
#include <stdexcept>
#include <unistd.h>

#include <boost/json.hpp>

#include "support/process.hpp"
#include "support/wait.hpp"

#ifndef SVC_SVCD_PATH
#error "SVC_SVCD_PATH must name the svcd binary"
#endif

namespace svc::e2e {
namespace json = boost::json;
using namespace std::chrono_literals;

svcd_process::svcd_process(std::vector<std::string> extra_args)
  : svcd_process(existing_data_dir{make_temp_dir("svc-e2e-")}, std::move(extra_args)) {}

svcd_process::svcd_process(existing_data_dir dir, std::vector<std::string> extra_args)
  : extra_args_(std::move(extra_args)), data_dir_(std::move(dir.path)) {
  try {
    start();
  } catch (...) {
    if (!std::getenv("SVC_E2E_KEEP")) {
      std::error_code ignored;
      std::filesystem::remove_all(data_dir_, ignored);
    }
    throw;
  }
}

svcd_process::~svcd_process() {
  if (running())
    kill9();
  if (keep_ || std::getenv("SVC_E2E_KEEP")) {
    std::cerr << "svcd data directory kept: " << data_dir_ << "\n";
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(data_dir_, ignored);
}

void svcd_process::start() {
  if (running())
    throw std::logic_error("svcd is already running");
  std::vector<std::string> argv{SVC_SVCD_PATH,  "--data-dir",     data_dir_, "--listen",
                                "127.0.0.1:0", "--admin-listen", "127.0.0.1:0"};
  argv.insert(argv.end(), extra_args_.begin(), extra_args_.end());
  int log = ::open(log_path().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0)
    throw std::runtime_error("cannot open " + log_path() + ": " + std::strerror(errno));
  std::string banner = "---- e2e: starting svcd\n";
  (void) !::write(log, banner.data(), banner.size());
  pid_ = spawn(argv, log, log);
  ::close(log);

  // Up means: svcd.json names this very process (a restart finds the
  // previous run's file first).
  std::string failure;
  bool up = wait_until(
    [&] {
      int status = 0;
      if (has_exited(pid_, status)) {
        failure = "svcd exited during start with status " + std::to_string(status);
        pid_ = -1;
        return true;
      }
      boost::system::error_code ec;
      auto v = json::parse(read_file(data_dir_ + "/svcd.json"), ec);
      if (ec || !v.is_object())
        return false;
      auto& o = v.as_object();
      auto* pid = o.if_contains("pid");
      auto* api = o.if_contains("api_url");
      auto* admin = o.if_contains("admin_url");
      if (!pid || !pid->is_int64() || pid->as_int64() != pid_ || !api || !api->is_string() || !admin
          || !admin->is_string())
        return false;
      api_url_ = std::string{api->as_string()};
      admin_url_ = std::string{admin->as_string()};
      return true;
    },
    15s);
  if (up && failure.empty())
    return;
  if (failure.empty()) {
    failure = "svcd did not write " + data_dir_ + "/svcd.json within 15 s";
    kill9();
  }
  throw std::runtime_error(failure + "\n--- svcd.log tail:\n" + log_tail());
}

int svcd_process::stop() {
  if (!running())
    return 0;
  ::kill(pid_, SIGTERM);
  auto status = wait_exit(pid_, 15s);
  if (!status) {
    std::cerr << "svcd did not exit within 15 s of SIGTERM; killing it\n--- svcd.log tail:\n" << log_tail() << "\n";
    kill9();
    return -1;
  }
  pid_ = -1;
  return *status;
}

void svcd_process::kill9() {
  if (!running())
    return;
  ::kill(pid_, SIGKILL);
  wait_exit(pid_, 15s);
  pid_ = -1;
}

int svcd_process::restart() {
  int status = stop();
  start();
  return status;
}

void svcd_process::set_extra_args(std::vector<std::string> extra_args) { extra_args_ = std::move(extra_args); }

void svcd_process::keep_data_dir() { keep_ = true; }

bool svcd_process::running() const { return pid_ > 0; }

pid_t svcd_process::pid() const { return pid_; }

const std::string& svcd_process::data_dir() const { return data_dir_; }

const std::string& svcd_process::api_url() const { return api_url_; }

const std::string& svcd_process::admin_url() const { return admin_url_; }

std::string svcd_process::admin_token() const {
  auto text = read_file(data_dir_ + "/admin.token");
  auto b = text.find_first_not_of(" \t\r\n");
  auto e = text.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : text.substr(b, e - b + 1);
}

std::string svcd_process::log_path() const { return data_dir_ + "/svcd.log"; }

std::string svcd_process::log_tail(std::size_t lines) const { return tail_of_file(log_path(), lines); }

} // namespace svc::e2e
