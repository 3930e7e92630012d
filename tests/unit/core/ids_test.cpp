#include "core/ids.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

BOOST_AUTO_TEST_SUITE(core_ids)

namespace {

using namespace svc::core;
using namespace std::chrono_literals;

constexpr std::string_view crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The 48-bit millisecond time in the first ten characters of a ULID.
uint64_t ulid_time_ms(const std::string& ulid) {
  uint64_t ms = 0;
  for (int i = 0; i < 10; ++i)
    ms = (ms << 5) | crockford.find(ulid[i]);
  return ms;
}

// A fixed instant far ahead of the wall clock, so the process-wide generator
// has never seen a later millisecond and encodes the time as given.
std::chrono::system_clock::time_point future(std::chrono::milliseconds offset) {
  return std::chrono::system_clock::time_point{std::chrono::milliseconds{4102444800000}} + offset; // 2100-01-01
}

} // namespace

BOOST_AUTO_TEST_CASE(ulid_has_26_crockford_characters) {
  for (int i = 0; i < 100; ++i) {
    auto id = make_ulid();
    BOOST_TEST(id.size() == svc::core::ulid_length);
    BOOST_TEST(id.size() == 26u);
    for (char c : id)
      BOOST_TEST(crockford.find(c) != std::string_view::npos, "character '" << c << "' of " << id);
    BOOST_TEST(id[0] <= '7'); // 128 bits in 130: the top character carries 3 bits
    BOOST_TEST(is_ulid(id));
  }
}

BOOST_AUTO_TEST_CASE(prefixed_id_has_the_prefix_form) {
  auto id = make_id("req");
  BOOST_TEST(id.size() == 4u + 26u);
  BOOST_TEST(id.substr(0, 4) == "req_");
  BOOST_TEST(is_ulid(id.substr(4)));
  BOOST_TEST(has_id_shape(id, "req"));
  BOOST_TEST(!has_id_shape(id, "img"));
  BOOST_TEST(has_id_shape(make_id("team"), "team"));
  BOOST_TEST(has_id_shape(make_id("we"), "we"));
}

BOOST_AUTO_TEST_CASE(ids_of_later_milliseconds_sort_later) {
  std::vector<std::string> ids;
  for (int i = 0; i < 200; ++i)
    ids.push_back(make_ulid(future(std::chrono::milliseconds{i * 7})));
  for (std::size_t i = 0; i < ids.size(); ++i)
    BOOST_TEST(ulid_time_ms(ids[i]) == static_cast<uint64_t>(4102444800000 + 7 * i));
  for (std::size_t i = 1; i < ids.size(); ++i)
    BOOST_TEST(ids[i - 1] < ids[i], ids[i - 1] << " < " << ids[i]);
}

BOOST_AUTO_TEST_CASE(ids_within_one_millisecond_strictly_increase) {
  auto at = future(1h);
  std::vector<std::string> ids;
  ids.reserve(10000);
  for (int i = 0; i < 10000; ++i)
    ids.push_back(make_ulid(at));
  for (auto& id : ids) {
    BOOST_REQUIRE(is_ulid(id));
    BOOST_REQUIRE(ulid_time_ms(id) == ulid_time_ms(ids.front()));
  }
  BOOST_TEST(ulid_time_ms(ids.front()) == static_cast<uint64_t>(4102444800000 + 3600000));
  for (std::size_t i = 1; i < ids.size(); ++i)
    BOOST_REQUIRE_MESSAGE(ids[i - 1] < ids[i], ids[i - 1] << " !< " << ids[i] << " at " << i);
}

BOOST_AUTO_TEST_CASE(is_ulid_rejects_other_shapes) {
  const std::string good = "01KAK3R5N2W9X7Q4V6B8C0D1EF";
  BOOST_REQUIRE(is_ulid(good));
  BOOST_TEST(!is_ulid(""));
  BOOST_TEST(!is_ulid(good.substr(0, 25)));          // too short
  BOOST_TEST(!is_ulid(good + "0"));                  // too long
  BOOST_TEST(!is_ulid("81KAK3R5N2W9X7Q4V6B8C0D1EF")); // over 128 bits
  BOOST_TEST(!is_ulid("ZZZZZZZZZZZZZZZZZZZZZZZZZZ"));
  for (char bad : {'I', 'L', 'O', 'U', '-', '_', ' ', '*'}) {
    auto s = good;
    s[12] = bad;
    BOOST_TEST(!is_ulid(s), "'" << bad << "' is not Crockford base32");
  }
}

BOOST_AUTO_TEST_CASE(has_id_shape_rejects_other_shapes) {
  const std::string ulid = "01KAK3R5N2W9X7Q4V6B8C0D1EF";
  BOOST_REQUIRE(has_id_shape("img_" + ulid, "img"));
  BOOST_TEST(!has_id_shape("vid_" + ulid, "img"));   // other kind
  BOOST_TEST(!has_id_shape("img_" + ulid, "im"));    // prefix of the prefix
  BOOST_TEST(!has_id_shape("img_" + ulid, "img_"));
  BOOST_TEST(!has_id_shape("img" + ulid, "img"));    // no separator
  BOOST_TEST(!has_id_shape("img-" + ulid, "img"));
  BOOST_TEST(!has_id_shape("img_" + ulid + "0", "img"));
  BOOST_TEST(!has_id_shape("img_" + ulid.substr(1), "img"));
  BOOST_TEST(!has_id_shape("img_81KAK3R5N2W9X7Q4V6B8C0D1EF", "img"));
  BOOST_TEST(!has_id_shape("img_01KAK3R5N2W9X7Q4V6B8C0D1EU", "img"));
  BOOST_TEST(!has_id_shape("", "img"));
  BOOST_TEST(!has_id_shape("img_", "img"));
  BOOST_TEST(!has_id_shape(ulid, ""));
}

BOOST_AUTO_TEST_CASE(sharded_id_names_its_shard_for_every_shard) {
  for (std::size_t s = 0; s < shard_count; ++s) {
    auto shard = static_cast<shard_id>(s);
    auto id = make_id("img", shard);
    BOOST_TEST(has_id_shape(id, "img"), id);
    BOOST_TEST((shard_of_id(id) == shard), id << " should name shard " << s);
  }
}

// Lists page a team's records by id, so one team's ids must sort by creation;
// other shards minting between them must not disturb that.
BOOST_AUTO_TEST_CASE(sharded_ids_of_one_shard_sort_by_creation) {
  std::vector<std::string> ids;
  ids.reserve(20000);
  for (int i = 0; i < 20000; ++i) {
    ids.push_back(make_id("evt", shard_id{7}));
    make_id("evt", static_cast<shard_id>(i));
    make_id("evt");
  }
  for (std::size_t i = 1; i < ids.size(); ++i)
    BOOST_REQUIRE_MESSAGE(ids[i - 1] < ids[i], ids[i - 1] << " !< " << ids[i] << " at " << i);
  for (auto& id : ids)
    BOOST_REQUIRE((shard_of_id(id) == shard_id{7}));
}

BOOST_AUTO_TEST_CASE(sharded_ids_keep_the_rest_of_the_random_part_random) {
  // Each shard's sequence draws its own 72 random bits: the low 70 (the last
  // 14 characters) of ids of 256 shards are all different.
  std::set<std::string> tails;
  for (std::size_t s = 0; s < shard_count; ++s)
    tails.insert(make_id("file", static_cast<shard_id>(s)).substr(5 + 12));
  BOOST_TEST(tails.size() == shard_count);
}

BOOST_AUTO_TEST_SUITE_END()
