#include "etcd_server.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "bench/receiver/test_ca.hpp"
#include "clients/etcd_client.hpp"
#include "clients/etcd_connection.hpp"
#include "core/crypto.hpp"

extern char** environ;

namespace svc::test {
namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

constexpr const char* etcd_binary = "/usr/bin/etcd";
// etcd is started through util-linux's setpriv, which has the kernel SIGKILL
// it when the thread that started it ends: a test that dies before its
// destructors (a crash, ctest's timeout, a sanitizer's halt) leaves no etcd behind.
constexpr const char* setpriv_binary = "/usr/bin/setpriv";
constexpr int start_attempts = 4;
// How long etcd gets to stop on SIGTERM before SIGKILL.
constexpr auto stop_grace = 5s;
// The deadline of one readiness probe, and the pause between probes.
constexpr auto probe_timeout = 250ms;
constexpr auto probe_interval = 20ms;
// What of the log goes into an exception.
constexpr std::size_t log_tail_bytes = 4000;

// A port nobody listens on right now: the kernel's pick for port 0. Another
// process may take it before etcd binds it; the start then retries.
std::uint16_t free_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor probe{ioc, {boost::asio::ip::make_address("127.0.0.1"), 0}};
  return probe.local_endpoint().port();
}

std::string url(std::uint16_t port, etcd_mode mode = etcd_mode::open) {
  return (mode == etcd_mode::secured ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port);
}

// The user a secured etcd has for svcd, and the prefix it may read and write.
constexpr const char* client_user = "svc";
constexpr const char* client_prefix = "/svc";
constexpr const char* client_prefix_end = "/svd";
constexpr auto admin_timeout = 5s;

void write_private(const std::string& path, const std::string& text) {
  std::ofstream out{path, std::ios::binary | std::ios::trunc};
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  out << text;
  if (!out.flush())
    throw std::runtime_error("etcd_server: cannot write " + path);
}

clients::etcd_security security_of(const etcd_credentials& c) {
  return c.ca.empty() ? clients::etcd_security{} : clients::etcd_security{{c.ca, c.cert, c.key}, c.user, c.password};
}

std::string file_text(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

// Starts argv[0] with its stdout and stderr appended to `log`, stdin from
// /dev/null and no other descriptor of ours (a test's sockets stay its own).
pid_t spawn_logged(const std::vector<std::string>& argv, const std::string& log) {
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error("etcd_server: cannot open " + log + ": " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fd, 1);
  posix_spawn_file_actions_adddup2(&actions, fd, 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  std::vector<char*> args;
  for (auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fd);
  if (rc != 0)
    throw std::runtime_error(std::string{"etcd_server: cannot start "} + args[0] + ": " + std::strerror(rc));
  return pid;
}

} // namespace

etcd_server::etcd_server(etcd_mode mode, std::chrono::milliseconds ready_within) : mode_(mode) {
  auto tmpl = (std::filesystem::temp_directory_path() / "svc-etcd-XXXXXX").string();
  if (!::mkdtemp(tmpl.data()))
    throw std::runtime_error(std::string{"etcd_server: mkdtemp failed: "} + std::strerror(errno));
  dir_ = tmpl;
  if (mode_ == etcd_mode::secured)
    write_credentials();
  auto deadline = steady::now() + ready_within;
  for (int attempt = 1; attempt <= start_attempts; ++attempt)
    if (start(deadline)) {
      if (mode_ == etcd_mode::secured)
        enable_auth();
      return;
    }
  fail("no free ports after " + std::to_string(start_attempts) + " attempts");
}

void etcd_server::write_credentials() {
  auto pki = receiver::make_test_pki();
  auto client = receiver::make_client_identity(pki.ca);
  receiver::write_test_pki(pki, dir_);
  credentials_.ca = dir_ + "/ca.pem";
  credentials_.cert = dir_ + "/client.pem";
  credentials_.key = dir_ + "/client.key";
  write_private(credentials_.cert, client.cert);
  write_private(credentials_.key, client.key);
  credentials_.user = client_user;
  credentials_.password = core::random_hex(16);
  credentials_.password_file = dir_ + "/client.password";
  write_private(credentials_.password_file, credentials_.password + "\n");
}

std::string etcd_server::admin_call(const std::string& path, const std::string& body, const std::string& root_token) {
  clients::etcd_security tls{{credentials_.ca, credentials_.cert, credentials_.key}, {}, {}};
  clients::etcd_connection c{"127.0.0.1", client_port_, admin_timeout, tls.tls(), path, body, root_token};
  auto [status, text] = c.answer(1u << 20);
  if (status != 200)
    fail(path + " answered " + std::to_string(status) + ": " + text);
  return text;
}

void etcd_server::enable_auth() {
  namespace json = boost::json;
  auto call = [this](const std::string& path, const json::object& body) { admin_call(path, json::serialize(body)); };
  root_password_ = core::random_hex(16);
  call("/v3/auth/user/add", {{"name", "root"}, {"password", root_password_}});
  call("/v3/auth/role/add", {{"name", "root"}});
  call("/v3/auth/user/grant", {{"user", "root"}, {"role", "root"}});
  call("/v3/auth/role/add", {{"name", client_user}});
  call("/v3/auth/role/grant", {{"name", client_user},
                               {"perm", json::object{{"permType", "READWRITE"},
                                                     {"key", core::base64_encode(client_prefix)},
                                                     {"range_end", core::base64_encode(client_prefix_end)}}}});
  call("/v3/auth/user/add", {{"name", client_user}, {"password", credentials_.password}});
  call("/v3/auth/user/grant", {{"user", client_user}, {"role", client_user}});
  call("/v3/auth/enable", {});
}

void etcd_server::forget_tokens() {
  namespace json = boost::json;
  auto login = admin_call("/v3/auth/authenticate",
                          json::serialize(json::object{{"name", "root"}, {"password", root_password_}}));
  std::string token{json::parse(login).at("token").as_string()};
  admin_call("/v3/auth/user/changepw",
             json::serialize(json::object{{"name", client_user}, {"password", credentials_.password}}), token);
}

etcd_server::~etcd_server() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    if (!reaped_within(stop_grace))
      kill();
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string etcd_server::endpoint() const {
  return "127.0.0.1:" + std::to_string(client_port_);
}

void etcd_server::kill() {
  if (pid_ <= 0)
    return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

std::string etcd_server::log_path() const {
  return dir_ + "/etcd.log";
}

bool etcd_server::start(steady::time_point deadline) {
  client_port_ = free_port();
  do
    peer_port_ = free_port();
  while (peer_port_ == client_port_);
  std::error_code ignored;
  std::filesystem::remove_all(dir_ + "/data", ignored); // a failed start may have begun one
  return launch(deadline);
}

void etcd_server::restart(std::chrono::milliseconds ready_within) {
  kill();
  if (!launch(steady::now() + ready_within))
    fail("a port of the restarted etcd was taken meanwhile");
}

bool etcd_server::launch(steady::time_point deadline) {
  auto data = dir_ + "/data";
  auto log_before = file_text(log_path()).size(); // the log spans the attempts
  std::vector<std::string> argv{setpriv_binary, "--pdeathsig", "KILL", "--", etcd_binary, "--name=test", "--data-dir=" + data, "--logger=zap", "--log-outputs=stderr",
                                 "--listen-client-urls=" + url(client_port_, mode_), "--advertise-client-urls=" + url(client_port_, mode_),
                                 "--listen-peer-urls=" + url(peer_port_), "--initial-advertise-peer-urls=" + url(peer_port_),
                                 "--initial-cluster=test=" + url(peer_port_)};
  if (mode_ == etcd_mode::secured)
    for (auto flag : {"--cert-file=" + dir_ + "/server.pem", "--key-file=" + dir_ + "/server.key",
                      std::string{"--client-cert-auth"}, "--trusted-ca-file=" + credentials_.ca})
      argv.push_back(flag);
  pid_ = spawn_logged(argv, log_path());
  // TLS only: an etcd that refuses the probe for want of a login (auth
  // enabled, after a restart) answers all the same.
  clients::etcd_client probe{{endpoint()}, std::chrono::duration_cast<std::chrono::milliseconds>(probe_timeout),
                             security_of({credentials_.ca, credentials_.cert, credentials_.key, {}, {}, {}})};
  for (;;) {
    try {
      probe.get("/svc-test/ready");
      return true;
    } catch (const clients::etcd_error& e) {
      if (e.which() == clients::etcd_error::kind::rejected)
        return true;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      if (file_text(log_path()).find("address already in use", log_before) != std::string::npos)
        return false;
      fail("etcd exited during start");
    }
    if (steady::now() >= deadline)
      fail("etcd did not answer in time");
    std::this_thread::sleep_for(probe_interval);
  }
}

bool etcd_server::reaped_within(std::chrono::milliseconds grace) {
  auto deadline = steady::now() + grace;
  while (::waitpid(pid_, nullptr, WNOHANG) != pid_) {
    if (steady::now() >= deadline)
      return false;
    std::this_thread::sleep_for(10ms);
  }
  pid_ = -1;
  return true;
}

void etcd_server::fail(const std::string& why) {
  kill();
  auto log = file_text(log_path());
  if (log.size() > log_tail_bytes)
    log.erase(0, log.size() - log_tail_bytes);
  auto message = "etcd_server: " + why + "; end of " + log_path() + ":\n" + log;
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
  throw std::runtime_error(message);
}

} // namespace svc::test
