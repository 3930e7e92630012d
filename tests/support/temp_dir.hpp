#pragma once
// A fresh directory under the system temp dir for one test, removed with
// everything in it (the unit tests' data directories and scratch files).

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace svc::test {

struct temp_dir {
  std::string path;
  /// Creates `<temp dir>/<prefix>-XXXXXX`.
  explicit temp_dir(const std::string& prefix = "svc-test") {
    auto tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    BOOST_REQUIRE(::mkdtemp(buf.data()) != nullptr);
    path = buf.data();
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

} // namespace svc::test
