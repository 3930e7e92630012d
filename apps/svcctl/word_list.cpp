// Comma-separated option values as JSON arrays.
#include "apps/svcctl/command.hpp"

namespace svc::ctl {

boost::json::array comma_separated(const std::string& list) {
  boost::json::array words;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    auto word = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!word.empty())
      words.emplace_back(word);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return words;
}

} // namespace svc::ctl
