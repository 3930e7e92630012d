#pragma once
// A fresh LMDB environment in a temp dir with the tables open over it, for the
// tests that write rows through a batch and read them back.

#include <cstdint>
#include <memory>
#include <string>

#include <boost/test/unit_test.hpp>

#include "persistence/environment.hpp"
#include "persistence/store_tables.hpp"
#include "tests/support/temp_dir.hpp"

namespace svc::test {

/// The environment at `path` with a map of `map_size` bytes; the test stops if it does not open.
inline std::unique_ptr<persistence::environment> open_environment(const std::string& path,
                                                                  uint64_t map_size = core::default_map_size) {
  std::string error;
  auto e = persistence::environment::open(path, error, map_size);
  BOOST_REQUIRE_MESSAGE(e, "environment::open failed: " << error);
  return e;
}

struct lmdb_fixture {
  temp_dir dir;
  std::unique_ptr<persistence::environment> env = open_environment(dir.path);
  persistence::tables t{*env};

  /// Commits `b`; the test stops if it fails.
  void commit(const persistence::write_batch& b) {
    auto st = env->commit(b);
    BOOST_REQUIRE_MESSAGE(st.ok(), st.message);
  }
};

} // namespace svc::test
