#include "support/peak_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace svc::e2e {

std::int64_t peak_rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::int64_t kib = -1;
      fields >> kib;
      return kib;
    }
  return -1;
}

bool reset_peak_rss(pid_t pid) {
  std::ofstream clear("/proc/" + std::to_string(pid) + "/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

} // namespace svc::e2e
