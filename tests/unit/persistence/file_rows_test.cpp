#include "persistence/file_rows.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "persistence/job_rows.hpp"
#include "tests/support/file_records.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(persistence_file_rows)

namespace {

using namespace svc::persistence;
using svc::core::from_unix_ms;
using svc::schema::file_record;

struct rows_fixture : svc::test::lmdb_fixture {
  file_blob_store blobs{dir.path + "/blobs"};

  std::size_t count(const index_table& index) const {
    bool more = false;
    return svc::test::scanned(index.keys({}, 100, more)).size();
  }
};

file_record sample_file(const std::string& id) {
  return svc::test::png_upload(id, from_unix_ms(1763720130123), from_unix_ms(1763806530123));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(put_file_writes_record_listing_and_expiry, rows_fixture) {
  auto f = sample_file("file_01KAK3R5N2W9X7Q4V6B8C0D1EF");
  write_batch b;
  put_file(t, b, f);
  commit(b);
  auto stored = svc::test::found(t.files.get(f.id));
  BOOST_REQUIRE(stored);
  BOOST_TEST(stored->sha256 == f.sha256);
  BOOST_TEST((svc::test::found(t.files_by_team.get("team_1/" + f.id)) == std::optional<std::string>{f.id}));
  bool more = false;
  auto keys = svc::test::scanned(t.expiries.keys({}, 10, more));
  BOOST_REQUIRE(keys.size() == 1u);
  BOOST_TEST(keys[0] == "0001763806530123/file/" + f.id);
  expiry_entry e;
  BOOST_REQUIRE(parse_expiry_key(keys[0], e));
  BOOST_TEST((e.kind == expiry_kind::file));
  BOOST_TEST(e.subject == f.id);
}

BOOST_FIXTURE_TEST_CASE(erase_file_removes_record_and_listing_only, rows_fixture) {
  auto a = sample_file("file_01KAK3R5N2W9X7Q4V6B8C0D1EF");
  auto b = sample_file("file_01KAK3R5N2W9X7Q4V6B8C0D1EG");
  write_batch put;
  put_file(t, put, a);
  put_file(t, put, b);
  commit(put);
  write_batch erase;
  erase_file(t, erase, a);
  commit(erase);
  BOOST_TEST(!svc::test::found(t.files.get(a.id)));
  BOOST_TEST(svc::test::found(t.files.get(b.id)).has_value());
  BOOST_TEST(count(t.files_by_team) == 1u);
  BOOST_TEST(count(t.expiries) == 2u); // the sweeper erases the row it handled
}

BOOST_FIXTURE_TEST_CASE(remove_file_bytes_deletes_the_blob_once, rows_fixture) {
  auto key = svc::schema::file_blob_key("file_01KAK3R5N2W9X7Q4V6B8C0D1EF");
  BOOST_REQUIRE(blobs.put(key, "png").ok());
  remove_file_bytes(blobs, "file_01KAK3R5N2W9X7Q4V6B8C0D1EF", "test");
  BOOST_TEST(!blobs.get(key));
  remove_file_bytes(blobs, "file_01KAK3R5N2W9X7Q4V6B8C0D1EF", "test"); // absent: no error
  BOOST_TEST(!blobs.get(key));
}

BOOST_AUTO_TEST_SUITE_END()
