// svcd's --config FILE with any content (and no environment).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/config_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/svc-fuzz-config-" + std::to_string(getpid());
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  const char* argv[] = {"svcd", "--config", path.c_str()};
  svc::core::parse_config(3, argv, [](const std::string&) { return std::optional<std::string>{}; });
  return 0;
}
