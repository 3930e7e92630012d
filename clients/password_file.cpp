#include "clients/password_file.hpp"

#include <sys/stat.h>

#include <fstream>
#include <iterator>

namespace svc::clients {

std::optional<std::string> read_password_file(const std::string& option, const std::string& path, std::string& error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "--" + option + " " + path + " is not a readable file";
    return std::nullopt;
  }
  if ((st.st_mode & (S_IROTH | S_IWOTH)) != 0) {
    error = "--" + option + " " + path + " is readable or writable by others (chmod o-rwx it)";
    return std::nullopt;
  }
  std::ifstream in{path, std::ios::binary};
  std::string text{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
  if (!in.good() && !in.eof()) {
    error = "--" + option + " " + path + " is not a readable file";
    return std::nullopt;
  }
  if (!text.empty() && text.back() == '\n')
    text.pop_back();
  if (!text.empty() && text.back() == '\r')
    text.pop_back();
  if (text.empty() || text.find_first_of(std::string{"\r\n\0", 3}) != std::string::npos) {
    error = "--" + option + " " + path + " must hold the password on one line";
    return std::nullopt;
  }
  return text;
}

} // namespace svc::clients
