#include "persistence/map_room.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <string>

#include "persistence/environment.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/file_size_limit.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_map_room)

namespace {

using namespace svc::persistence;
using svc::test::temp_dir;

constexpr uint64_t mib = uint64_t{1} << 20;
constexpr uint64_t small_map = 2 * mib;

std::string key_of(int i) {
  char k[16];
  std::snprintf(k, sizeof k, "k%05d", i);
  return k;
}

// 20 KB: five overflow pages, so the map fills in a few dozen writes.
std::string value_of(char fill) { return encode_text(std::string(20000, fill)); }

write_batch put_one(int i, char fill = 'a') {
  write_batch b;
  b.put(table::events, key_of(i), value_of(fill));
  return b;
}

uint64_t file_size(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// A store on a 2 MiB map, written until it refuses a write.
struct full_store {
  temp_dir dir;
  std::unique_ptr<environment> env;
  int stored = 0;     ///< keys k00000.. committed
  status refused;     ///< the first write refused

  /// `open_each` rows in each table of open work (live jobs, events not yet
  /// fanned out, deliveries not yet done) come first.
  explicit full_store(int open_each = 0) {
    std::string error;
    env = environment::open(dir.path, error, small_map);
    BOOST_REQUIRE_MESSAGE(env, error);
    write_batch open;
    for (auto t : {table::live_jobs, table::pending_events, table::delivery_tasks})
      for (int i = 0; i < open_each; ++i)
        open.put(t, key_of(i), encode_text(key_of(i)));
    BOOST_REQUIRE(env->commit(open).ok());
    for (; stored < 1000; ++stored) {
      refused = env->commit(put_one(stored));
      if (!refused.ok())
        return;
    }
    BOOST_FAIL("a 2 MiB map took 20 MB");
  }
};

} // namespace

BOOST_AUTO_TEST_CASE(the_reserve_is_two_percent_at_least_8_mib_at_most_a_tenth) {
  constexpr uint64_t page = 4096;
  BOOST_TEST(map_room::reserve_pages((uint64_t{64} << 30) / page, page) == (uint64_t{64} << 30) / page / 50);
  BOOST_TEST(map_room::reserve_pages(100 * mib / page, page) == 8 * mib / page);
  BOOST_TEST(map_room::reserve_pages(4 * mib / page, page) == 4 * mib / page / 10);
  BOOST_TEST(map_room::disk_reserve_pages((uint64_t{1} << 30) / page, page) == 8 * mib / page);
  BOOST_TEST(map_room::disk_reserve_pages(100, page) == 100u);
}

BOOST_AUTO_TEST_CASE(usage_reports_the_map_the_reserve_and_what_is_used) {
  temp_dir dir;
  std::string error;
  auto env = environment::open(dir.path, error, small_map);
  BOOST_REQUIRE(env);
  auto before = env->usage();
  BOOST_TEST(before.map_bytes == small_map);
  BOOST_TEST(before.reserve_bytes == small_map / 4096 / 10 * 4096);
  BOOST_TEST(before.used_bytes > 0u);
  BOOST_TEST(before.ratio() < 0.05);
  BOOST_REQUIRE(env->commit(put_one(1)).ok());
  BOOST_TEST(env->usage().used_bytes >= before.used_bytes + 20000);
  write_batch erase;
  erase.erase(table::events, key_of(1));
  BOOST_REQUIRE(env->commit(erase).ok());
  BOOST_TEST(env->usage().used_bytes < before.used_bytes + 20000);
}

BOOST_AUTO_TEST_CASE(growth_into_the_reserve_is_refused_and_changes_nothing_while_reads_go_on) {
  full_store s;
  BOOST_TEST(s.refused.out_of_room);
  BOOST_TEST(s.refused.message.rfind("store full", 0) == 0u, s.refused.message);
  BOOST_TEST(!svc::test::found(s.env->get(table::events, key_of(s.stored))));
  BOOST_TEST((svc::test::found(s.env->get(table::events, key_of(0))) == std::optional<std::string>{value_of('a')}));
  auto u = s.env->usage();
  BOOST_TEST(u.used_bytes + u.reserve_bytes <= u.map_bytes);
  BOOST_TEST(u.ratio() > 0.8);
  // Refused by the reserve before LMDB itself ran out of pages.
  BOOST_TEST(s.stored > 60);
}

BOOST_AUTO_TEST_CASE(deletes_and_same_size_rewrites_commit_when_full_and_room_comes_back) {
  full_store s;
  BOOST_REQUIRE(s.refused.out_of_room);
  BOOST_TEST(s.env->commit(put_one(0, 'b')).ok()); // the same size, in place
  write_batch erase;
  for (int i = 1; i < 6; ++i)
    erase.erase(table::events, key_of(i));
  auto erased = s.env->commit(erase);
  BOOST_TEST(erased.ok(), erased.message);
  auto again = s.env->commit(put_one(s.stored));
  BOOST_TEST(again.ok(), again.message);
  BOOST_TEST(svc::test::found(s.env->get(table::events, key_of(s.stored))).has_value());
  BOOST_TEST((svc::test::found(s.env->get(table::events, key_of(0))) == std::optional<std::string>{value_of('b')}));
}

BOOST_AUTO_TEST_CASE(accepted_work_grows_into_half_the_reserve_where_new_work_is_refused) {
  full_store s;
  BOOST_REQUIRE(s.refused.out_of_room);
  const auto reserve = s.env->usage().reserve_bytes;
  int finished = 0;
  status st;
  for (; finished < 100; ++finished) {
    auto b = put_one(s.stored + finished);
    b.finishes_accepted_work = true;
    if (!(st = s.env->commit(b)).ok())
      break;
  }
  // 20 KB rows: about half the reserve's pages went to accepted work, then it too is refused.
  BOOST_TEST(finished > 0);
  BOOST_TEST(st.out_of_room);
  BOOST_TEST(st.message.find("kept for deletes") != std::string::npos, st.message);
  auto u = s.env->usage();
  BOOST_TEST(u.used_bytes + reserve / 2 <= u.map_bytes);
  BOOST_TEST(u.used_bytes + reserve / 2 + 6 * 4096 > u.map_bytes);
  // New work stays refused, and a batch mixing both is new work.
  BOOST_TEST(s.env->commit(put_one(1000)).out_of_room);
  write_batch mixed;
  mixed.finishes_accepted_work = true;
  mixed.append(put_one(1001));
  BOOST_TEST(!mixed.finishes_accepted_work);
}

// New work leaves, past the reserve, the room finishing the open work takes,
// and that work then has it (issue 30: on a full 4 MiB map, jobs admitted
// earlier and their events' fan-out retried their commits for ever).
BOOST_AUTO_TEST_CASE(new_work_leaves_the_room_pledged_to_open_work) {
  full_store idle, busy{10};
  BOOST_REQUIRE(busy.refused.out_of_room);
  const auto page = 4096;
  const auto pledged = map_room::pledged_pages(30, page);
  BOOST_TEST(pledged == 30u * 4);
  BOOST_TEST(busy.stored < idle.stored);
  auto u = busy.env->usage();
  BOOST_TEST(u.used_bytes + u.reserve_bytes + pledged * page <= u.map_bytes);
  // 20 KB rows take five pages: the pledge holds 24 of them for accepted work.
  for (int i = 0; i < 24; ++i) {
    auto b = put_one(busy.stored + i);
    b.finishes_accepted_work = true;
    auto st = busy.env->commit(b);
    BOOST_TEST_REQUIRE(st.ok(), "accepted write " << i << ": " << st.message);
  }
}

// A batch that does not grow the trees but needs more fresh pages than the map
// has (every value rewritten: copy-on-write frees the old pages only at its
// commit) meets LMDB's own MDB_MAP_FULL: out of room as well, nothing changed.
BOOST_AUTO_TEST_CASE(lmdb_running_out_of_pages_is_out_of_room_too) {
  full_store s;
  write_batch rewrite_all;
  for (int i = 0; i < s.stored; ++i)
    rewrite_all.put(table::events, key_of(i), value_of('c'));
  auto st = s.env->commit(rewrite_all);
  BOOST_TEST(st.out_of_room);
  BOOST_TEST(st.message.find("MDB_MAP_FULL") != std::string::npos, st.message);
  BOOST_TEST((svc::test::found(s.env->get(table::events, key_of(0))) == std::optional<std::string>{value_of('a')}));
  BOOST_TEST(s.env->commit(put_one(0, 'd')).ok());
}

// RLIMIT_FSIZE stands in for a full disk: the data file cannot grow.
BOOST_AUTO_TEST_CASE(a_disk_that_cannot_grow_the_file_refuses_growth_but_not_deletes) {
  temp_dir dir;
  std::string error;
  auto env = environment::open(dir.path, error, 64 * mib);
  BOOST_REQUIRE(env);
  BOOST_REQUIRE(env->commit(put_one(0)).ok());
  const auto path = dir.path + "/data.mdb";
  // The file holds the data and the allocated disk reserve past it.
  BOOST_TEST(file_size(path) >= env->usage().used_bytes + env->usage().reserve_bytes / 2);
  write_batch big;
  for (int i = 1; i < 200; ++i) // 4 MB: more than the disk reserve
    big.put(table::events, key_of(i), value_of('a'));
  {
    svc::test::file_size_limit disk_full{file_size(path)};
    auto st = env->commit(big);
    BOOST_TEST(st.out_of_room);
    BOOST_TEST(st.message.find("File too large") != std::string::npos, st.message);
    write_batch erase;
    erase.erase(table::events, key_of(0));
    auto erased = env->commit(erase);
    BOOST_TEST(erased.ok(), erased.message);
  }
  BOOST_TEST(!svc::test::found(env->get(table::events, key_of(1))));
  auto later = env->commit(big);
  BOOST_TEST(later.ok(), later.message);
}

BOOST_AUTO_TEST_SUITE_END()
