#include "core/memory_file.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

BOOST_AUTO_TEST_SUITE(core_memory_file)

// The in-memory positional file, and sha256_of reading any positional file in chunks.

namespace {

bool write(svc::core::memory_file& f, uint64_t offset, const std::string& bytes) {
  std::string error;
  return f.write_at(offset, bytes.data(), bytes.size(), error);
}

} // namespace

BOOST_AUTO_TEST_CASE(writes_anywhere_and_reads_back) {
  svc::core::memory_file f;
  BOOST_TEST(f.size() == 0u);
  BOOST_TEST(write(f, 0, "....tail"));
  BOOST_TEST(write(f, 0, "head"));
  BOOST_TEST(write(f, 10, "far"), "past the end: a gap of zeros");
  BOOST_TEST(f.size() == 13u);
  char back[16] = {};
  BOOST_TEST(f.read_at(2, back, 4) == 4);
  BOOST_TEST(std::string(back, 4) == "adta");
  BOOST_TEST(f.read_at(11, back, sizeof back) == 2, "fewer at the end");
  BOOST_TEST(f.read_at(13, back, sizeof back) == 0);
  BOOST_TEST(f.take() == std::string("headtail\0\0far", 13));
  BOOST_TEST(f.size() == 0u);
}

BOOST_AUTO_TEST_CASE(sha256_of_a_file_is_the_sha256_of_its_bytes) {
  svc::core::memory_file f;
  std::string bytes(150000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(i * 13 % 251);
  BOOST_REQUIRE(write(f, 0, bytes));
  auto hash = svc::core::sha256_of(f);
  BOOST_REQUIRE(hash);
  BOOST_TEST(svc::core::to_hex(*hash) == svc::core::to_hex(svc::core::sha256(bytes)));
  svc::core::memory_file empty;
  BOOST_TEST(svc::core::to_hex(*svc::core::sha256_of(empty)) == svc::core::to_hex(svc::core::sha256("")));
}

BOOST_AUTO_TEST_SUITE_END()
