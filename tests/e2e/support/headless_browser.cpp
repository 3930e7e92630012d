#include "support/headless_browser.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <openssl/evp.h>
#include <signal.h>
#include <stdexcept>
#include <unistd.h>

#include "support/process.hpp"
#include "support/wait.hpp"

namespace svc::e2e {
namespace {
using namespace std::chrono_literals;

constexpr const char* chromedriver_path = "/usr/bin/chromedriver";
constexpr const char* chromium_path = "/usr/bin/chromium";

// The port chromedriver printed once it listens (`--port=0` picks one), or 0.
unsigned short driver_port(const std::string& log_path) {
  static const std::string marker = "started successfully on port ";
  auto log = read_file(log_path);
  auto at = log.find(marker);
  if (at == std::string::npos)
    return 0;
  return static_cast<unsigned short>(std::atoi(log.c_str() + at + marker.size()));
}

// Pids of processes whose command line contains `needle`.
std::vector<pid_t> processes_mentioning(const std::string& needle) {
  std::vector<pid_t> out;
  DIR* proc = ::opendir("/proc");
  if (!proc)
    return out;
  while (auto* entry = ::readdir(proc)) {
    pid_t pid = std::atoi(entry->d_name);
    if (pid <= 0)
      continue;
    auto cmdline = read_file("/proc/" + std::string{entry->d_name} + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(needle) != std::string::npos)
      out.push_back(pid);
  }
  ::closedir(proc);
  return out;
}

std::string base64_decode(const std::string& text) {
  std::string out(text.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0)
    throw std::runtime_error("screenshot is not base64");
  // EVP_DecodeBlock counts the padding as zero bytes.
  auto padding = text.size() - text.find_last_not_of('=') - 1;
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

} // namespace

headless_browser::headless_browser(int width, int height) {
  dir_ = make_temp_dir("svc-chromium-");
  profile_dir_ = dir_ + "/profile";
  auto log_path = dir_ + "/chromedriver.log";
  try {
    int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (log < 0)
      throw std::runtime_error("cannot create " + log_path + ": " + std::strerror(errno));
    driver_ = spawn({chromedriver_path, "--port=0"}, log, log);
    ::close(log);
    if (!wait_until([&] { return driver_port(log_path) != 0; }, 20s, 20ms))
      throw std::runtime_error("chromedriver did not start (install chromium and chromium-driver: scripts/setup): "
                               + read_file(log_path));
    driver_client_.emplace("http://127.0.0.1:" + std::to_string(driver_port(log_path)), foreign_server);
    boost::json::array args{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--user-data-dir=" + profile_dir_,
                            "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            "--disable-default-apps", "--disable-domain-reliability",
                            // Only loopback: any other host name does not resolve.
                            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"};
    boost::json::object options{{"binary", chromium_path}, {"args", std::move(args)}};
    boost::json::object caps{{"capabilities", {{"alwaysMatch", {{"goog:chromeOptions", std::move(options)}}}}}};
    auto created = command("POST", "/session", caps);
    session_ = boost::json::value_to<std::string>(created.at("sessionId"));
  } catch (...) {
    stop();
    throw;
  }
}

headless_browser::~headless_browser() { stop(); }

void headless_browser::stop() {
  if (!session_.empty()) {
    try {
      command("DELETE", "/session/" + session_, nullptr);
    } catch (const std::exception&) {
      // The processes are ended below either way.
    }
    session_.clear();
  }
  if (driver_ > 0) {
    ::kill(driver_, SIGTERM);
    if (!wait_exit(driver_, 5s)) {
      ::kill(driver_, SIGKILL);
      wait_exit(driver_, 5s);
    }
    driver_ = -1;
  }
  // Whatever chromium process is left of this profile (a crashed session, a
  // killed driver) is ended: it is found by the profile path, unique to us.
  for (auto pid : processes_mentioning(profile_dir_))
    ::kill(pid, SIGKILL);
  wait_until([&] { return processes_mentioning(profile_dir_).empty(); }, 5s, 20ms);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

boost::json::value headless_browser::command(const std::string& method, const std::string& path,
                                             const boost::json::value& body) {
  auto r = driver_client_->request(method, path, {{"Content-Type", "application/json"}},
                                   body.is_null() ? std::string{} : boost::json::serialize(body));
  auto reply = r.json();
  if (r.status != 200 || !reply.is_object() || !reply.as_object().contains("value"))
    throw std::runtime_error("WebDriver " + method + " " + path + ": " + r.summary());
  return reply.at("value");
}

void headless_browser::navigate(const std::string& url) {
  command("POST", "/session/" + session_ + "/url", {{"url", url}});
}

boost::json::value headless_browser::run(const std::string& body, boost::json::array args) {
  return command("POST", "/session/" + session_ + "/execute/sync", {{"script", body}, {"args", std::move(args)}});
}

void headless_browser::resize(int width, int height) {
  command("POST", "/session/" + session_ + "/window/rect", {{"width", width}, {"height", height}});
}

std::string headless_browser::screenshot_png() {
  auto shot = command("GET", "/session/" + session_ + "/screenshot", nullptr);
  return base64_decode(boost::json::value_to<std::string>(shot));
}

} // namespace svc::e2e
