#include "actors/file_writer.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "actor_fixture.hpp"
#include "faulty_store.hpp"
#include "core/crypto.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_file_writer)

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using svc::schema::file_record;

// Blob files, with puts that can be made to fail.
struct faulty_blobs final : svc::persistence::blob_store {
  svc::persistence::file_blob_store files;
  bool fail_puts = false;
  bool disk_full = false; ///< failed puts say out of room
  explicit faulty_blobs(std::string root) : files{std::move(root)} {}
  svc::persistence::status put(std::string_view key, std::string_view bytes) override {
    return fail_puts ? svc::persistence::status{"disk full", disk_full} : files.put(key, bytes);
  }
  svc::persistence::status create(std::string_view key, std::unique_ptr<svc::persistence::blob_writer>& out) override {
    return fail_puts ? svc::persistence::status{"disk full", disk_full} : files.create(key, out);
  }
  std::optional<std::string> get(std::string_view key) const override { return files.get(key); }
  std::optional<uint64_t> size(std::string_view key) const override { return files.size(key); }
  std::optional<std::string> read_range(std::string_view key, uint64_t offset, uint64_t length) const override {
    return files.read_range(key, offset, length);
  }
  std::unique_ptr<svc::persistence::blob_file> open(std::string_view key) const override { return files.open(key); }
  svc::persistence::status remove(std::string_view key) override { return files.remove(key); }
};

struct writer_fixture : svc::test::actor_fixture {
  faulty_blobs blobs{dir.path + "/blobs"};
  svc::actors::file_writer_actor writer;

  writer_fixture() {
    // Not detached as in svcd: the test thread runs it.
    writer = track(sys.spawn(svc::actors::file_writer, ctx(), static_cast<svc::persistence::blob_store*>(&blobs)));
    run_pending();
  }

  file_upload upload(const std::string& id, std::string bytes) {
    file_record f;
    f.id = id;
    f.team_id = "team_1";
    f.content_type = "image/png";
    f.width = 4;
    f.height = 3;
    f.created_at = clock->now();
    f.expires_at = f.created_at + 24h;
    return {f, std::make_shared<const std::string>(std::move(bytes))};
  }

  std::size_t rows(const svc::persistence::index_table& t) const {
    bool more = false;
    return svc::test::scanned(t.keys({}, 100, more)).size();
  }
};

const std::string id = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF";

} // namespace

BOOST_FIXTURE_TEST_SUITE(file_writer_suite, writer_fixture)

BOOST_AUTO_TEST_CASE(stores_bytes_then_the_record_and_answers_it) {
  std::string bytes(100000, '\x89');
  auto r = ask<file_record>(writer, create_atom::value, upload(id, bytes));
  BOOST_TEST_REQUIRE(r.value.has_value());
  BOOST_TEST(r.value->bytes == bytes.size());
  BOOST_TEST(r.value->sha256 == svc::core::to_hex(svc::core::sha256(bytes)));
  BOOST_TEST((blobs.get(svc::schema::file_blob_key(id)) == std::optional<std::string>{bytes}));
  auto stored = svc::test::found(tables.files.get(id));
  BOOST_TEST_REQUIRE(stored.has_value());
  BOOST_TEST(stored->sha256 == r.value->sha256);
  BOOST_TEST(stored->bytes == bytes.size());
  BOOST_TEST(svc::test::found(tables.files_by_team.get("team_1/" + id)).has_value());
  BOOST_TEST(rows(tables.expiries) == 1u);
  BOOST_TEST(state_of<file_writer_state>(writer).stored == 1u);
}

BOOST_AUTO_TEST_CASE(a_failed_blob_write_stores_nothing) {
  blobs.fail_puts = true;
  auto r = ask<file_record>(writer, create_atom::value, upload(id, "png"));
  BOOST_TEST(!r.value);
  BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::internal_error));
  BOOST_TEST(!svc::test::found(tables.files.get(id)));
  BOOST_TEST(rows(tables.expiries) == 0u);
  BOOST_TEST(state_of<file_writer_state>(writer).failed == 1u);
}

BOOST_AUTO_TEST_CASE(a_failed_commit_deletes_the_bytes_again) {
  stop(store); // every commit now fails: the store is gone
  auto r = ask<file_record>(writer, create_atom::value, upload(id, "png"));
  BOOST_TEST(!r.value);
  BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::internal_error));
  BOOST_TEST(!blobs.get(svc::schema::file_blob_key(id)));
  BOOST_TEST(!svc::test::found(tables.files.get(id)));
}

BOOST_AUTO_TEST_CASE(a_full_disk_answers_insufficient_storage_and_stores_nothing) {
  blobs.fail_puts = blobs.disk_full = true;
  auto r = ask<file_record>(writer, create_atom::value, upload(id, "png"));
  BOOST_TEST(!r.value);
  BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::insufficient_storage));
  BOOST_TEST(!svc::test::found(tables.files.get(id)));
}

// A store that refuses the record for lack of room: 507, and the bytes go again.
BOOST_AUTO_TEST_CASE(a_full_store_answers_insufficient_storage_and_deletes_the_bytes) {
  auto full = track(sys.spawn(svc::test::refusing_store, store, std::make_shared<std::atomic<bool>>(true),
                              svc::actors::make_domain_error(svc::schema::error_code::insufficient_storage)));
  auto c = ctx();
  c.store = full;
  auto refused = track(sys.spawn(svc::actors::file_writer, c, static_cast<svc::persistence::blob_store*>(&blobs)));
  auto r = ask<file_record>(refused, create_atom::value, upload(id, "png"));
  BOOST_TEST(!r.value);
  BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::insufficient_storage));
  BOOST_TEST(!blobs.get(svc::schema::file_blob_key(id)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
