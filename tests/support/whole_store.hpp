#pragma once
// Every row of a store, by a full scan of each table: for the tests that
// compare what a store holds with what was written into it.

#include "persistence/environment.hpp"
#include "tests/support/read_results.hpp"
#include "tests/support/shard_team_rows.hpp"

namespace svc::test {

/// Every row of every table (`meta` too), keys as callers see them.
inline row_map whole_store(const persistence::environment& env) {
  row_map out;
  for (std::size_t i = 0; i < persistence::table_count; ++i) {
    auto t = static_cast<persistence::table>(i);
    require_ok(env.scan(t, {}, [&](std::string_view k, std::string_view v) {
      out[{t, std::string{k}}] = std::string{v};
      return true;
    }));
  }
  return out;
}

} // namespace svc::test
