#include "core/process_stats.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace svc::core {
namespace {

std::optional<std::string> read_text(const char* path) {
  std::ifstream in{path};
  if (!in)
    return std::nullopt;
  return std::string{std::istreambuf_iterator<char>{in}, {}};
}

// Seconds since the epoch at which the machine booted (`btime` of /proc/stat).
std::optional<double> boot_time() {
  auto text = read_text("/proc/stat");
  if (!text)
    return std::nullopt;
  auto at = text->find("\nbtime ");
  if (at == std::string::npos)
    return std::nullopt;
  return std::stod(text->substr(at + 7));
}

double count_open_fds() {
  double n = 0;
  if (auto* dir = ::opendir("/proc/self/fd")) {
    while (auto* entry = ::readdir(dir))
      if (entry->d_name[0] != '.')
        ++n;
    ::closedir(dir);
    --n; // the descriptor of the listing itself
  }
  return n;
}

} // namespace

std::optional<process_stats> read_process_stats() {
  auto stat = read_text("/proc/self/stat");
  auto boot = boot_time();
  if (!stat || !boot)
    return std::nullopt;
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  auto close = stat->rfind(')');
  if (close == std::string::npos)
    return std::nullopt;
  std::istringstream rest{stat->substr(close + 2)};
  std::vector<std::string> fields{std::istream_iterator<std::string>{rest}, {}};
  // fields[0] is field 3 (state): utime is field 14, stime 15, starttime 22, vsize 23, rss 24.
  if (fields.size() < 22)
    return std::nullopt;
  auto ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  auto page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  process_stats s;
  s.cpu_seconds = (std::stod(fields[11]) + std::stod(fields[12])) / ticks;
  s.start_time_seconds = *boot + std::stod(fields[19]) / ticks;
  s.virtual_bytes = std::stod(fields[20]);
  s.resident_bytes = std::stod(fields[21]) * page;
  s.open_fds = count_open_fds();
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0)
    s.max_fds = static_cast<double>(limit.rlim_cur);
  return s;
}

} // namespace svc::core
