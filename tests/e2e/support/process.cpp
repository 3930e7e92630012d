#include "support/process.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace svc::e2e {
namespace {

int decode_status(int status) {
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return -1;
}

} // namespace

pid_t spawn(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd) {
  // Everything the child needs is prepared before fork: after it only
  // async-signal-safe calls are allowed.
  std::vector<char*> args;
  for (auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "SVC_", 4) != 0)
      env_store.emplace_back(*e);
  std::vector<char*> env;
  for (auto& e : env_store)
    env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);

  pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string{"fork failed: "} + std::strerror(errno));
  if (pid == 0) {
    ::dup2(devnull, 0);
    ::dup2(stdout_fd, 1);
    ::dup2(stderr_fd, 2);
    ::signal(SIGPIPE, SIG_DFL);
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
      for (int fd = 3; fd < 4096; ++fd)
        ::close(fd);
    ::execve(args[0], args.data(), env.data());
    ::_exit(127);
  }
  ::close(devnull);
  return pid;
}

bool has_exited(pid_t pid, int& status) {
  int raw = 0;
  pid_t r = ::waitpid(pid, &raw, WNOHANG);
  if (r == pid) {
    status = decode_status(raw);
    return true;
  }
  return false;
}

std::optional<int> wait_exit(pid_t pid, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  for (;;) {
    if (has_exited(pid, status))
      return status;
    if (std::chrono::steady_clock::now() >= deadline)
      return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds{10});
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::string tail_of_file(const std::string& path, std::size_t lines) {
  auto text = read_file(path);
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n')
    --pos;
  for (std::size_t n = 0; n < lines && pos > 0; ++n) {
    auto nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) {
      pos = 0;
      break;
    }
    pos = nl;
  }
  return text.substr(pos);
}

std::string make_temp_dir(const std::string& prefix) {
  std::string tmpl = "/tmp/" + prefix + "XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    throw std::runtime_error(std::string{"mkdtemp failed: "} + std::strerror(errno));
  return tmpl;
}

} // namespace svc::e2e
