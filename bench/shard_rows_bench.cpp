// What reading and erasing one shard's rows costs (persistence/shard_rows.hpp):
// a shard is one key range of each table, so the cost should follow the
// shard's rows, not the store's. Fills a store with TEAMS teams (default 2000) of 34 rows each
// (tests/support/shard_team_rows.hpp), then times, for one shard: the pages
// of read_shard_rows at 64 KiB, and erase_shard_rows' walk (not its commit).
// Run: build/bench/svc-shard-rows-bench [TEAMS]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "persistence/shard_rows.hpp"
#include "tests/support/shard_team_rows.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
  using namespace svc;
  const int teams = argc > 1 ? std::atoi(argv[1]) : 2000;
  auto tmpl = (std::filesystem::temp_directory_path() / "svc-shard-rows-bench-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    std::perror("mkdtemp");
    return 1;
  }
  const std::string dir = tmpl;
  std::string error;
  auto env = persistence::environment::open(dir, error);
  if (!env) {
    std::fprintf(stderr, "open: %s\n", error.c_str());
    return 1;
  }
  persistence::tables t{*env};
  const std::string first_team = core::make_id("team");
  persistence::write_batch batch;
  for (int i = 0; i < teams; ++i) {
    auto team = i == 0 ? first_team : core::make_id("team");
    batch.append(test::team_rows{t, team, core::shard_of_team(team)}.batch);
    if (batch.ops.size() > 20000 || i + 1 == teams) {
      if (auto st = env->commit(batch); !st.ok()) {
        std::fprintf(stderr, "commit: %s\n", st.message.c_str());
        return 1;
      }
      batch = {};
    }
  }
  std::size_t stored = 0;
  for (std::size_t i = 0; i < persistence::table_count; ++i)
    stored += env->count(static_cast<persistence::table>(i));
  const auto shard = core::shard_of_team(first_team);

  auto start = clock_type::now();
  std::size_t pages = 0, rows = 0, bytes = 0;
  std::string cursor;
  do {
    auto page = persistence::read_shard_rows(t, shard, cursor, 64 * 1024);
    if (page.failed()) {
      std::fprintf(stderr, "read: %s\n", page.why().c_str());
      return 1;
    }
    ++pages;
    rows += page->rows.size();
    for (auto& r : page->rows)
      bytes += r.key.size() + r.value.size();
    cursor = page->next;
  } while (!cursor.empty());
  const double read_ms = ms_since(start);

  start = clock_type::now();
  persistence::write_batch erase;
  std::vector<std::string> blobs;
  auto erased = persistence::erase_shard_rows(t, shard, erase, blobs);
  const double erase_ms = ms_since(start);
  if (erased.failed() || *erased != rows) {
    std::fprintf(stderr, "erase walk disagrees with the pages\n");
    return 1;
  }
  std::printf("store: %d teams, %zu rows; shard %d: %zu rows, %zu bytes, %zu blobs\n", teams, stored,
              static_cast<int>(shard), rows, bytes, blobs.size());
  std::printf("read_shard_rows, 64 KiB pages: %zu pages in %.2f ms (%.3f ms a page, %.0f shard rows/s)\n", pages,
              read_ms, read_ms / static_cast<double>(pages), static_cast<double>(rows) * 1000.0 / read_ms);
  std::printf("erase_shard_rows walk: %.2f ms (%.0f shard rows/s)\n", erase_ms,
              static_cast<double>(rows) * 1000.0 / erase_ms);
  // What a scan no prefix pins costs before its first row: the expiry
  // sweeper's usual pass (nothing due) opens every shard's range of `expiries`.
  std::vector<double> first_row_us;
  for (int i = 0; i < 101; ++i) {
    start = clock_type::now();
    auto st = env->scan(persistence::table::expiries, {}, [](std::string_view, std::string_view) { return false; });
    first_row_us.push_back(ms_since(start) * 1000.0);
    if (!st.ok()) {
      std::fprintf(stderr, "scan: %s\n", st.message.c_str());
      return 1;
    }
  }
  std::sort(first_row_us.begin(), first_row_us.end());
  std::printf("whole-table scan of expiries to its first row (256 ranges merged): median %.1f us of 101\n",
              first_row_us[first_row_us.size() / 2]);
  std::printf("reproduce: build/bench/svc-shard-rows-bench %d\n", teams);
  env.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}
