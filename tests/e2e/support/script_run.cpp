#include "support/script_run.hpp"

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

#include "support/process.hpp"
#include "support/wait.hpp"

namespace svc::e2e {

using namespace std::chrono_literals;

script_run::script_run(const std::vector<std::string>& env, const std::string& interpreter,
                       const std::string& script, const std::vector<std::string>& args)
  : dir_(make_temp_dir("svc-example-")) {
  std::vector<std::string> argv{"/usr/bin/env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(interpreter);
  argv.push_back(script);
  argv.insert(argv.end(), args.begin(), args.end());
  int fd = ::open(output_path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error("cannot create " + output_path());
  pid_ = spawn(argv, fd, fd);
  ::close(fd);
}

script_run::~script_run() {
  if (!exit_code_) {
    ::kill(pid_, SIGTERM);
    if (!wait_exit(pid_, 5s)) {
      ::kill(pid_, SIGKILL);
      wait_exit(pid_, 5s);
    }
  }
  std::filesystem::remove_all(dir_);
}

int script_run::wait(std::chrono::milliseconds timeout) {
  exit_code_ = wait_exit(pid_, timeout);
  return exit_code_.value_or(-1);
}

std::string script_run::output() const { return read_file(output_path()); }

bool script_run::wait_output(const std::string& text, std::chrono::milliseconds timeout) const {
  return wait_until([&] { return output().find(text) != std::string::npos; }, timeout, 50ms);
}

} // namespace svc::e2e
