#pragma once
// A program's output or a log, line by line, for tests that read them.

#include <sstream>
#include <string>
#include <vector>

namespace svc::e2e {

/// The lines of `text`, without their line breaks.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

} // namespace svc::e2e
