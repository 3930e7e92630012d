#include "core/shard.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <cstddef>
#include <string>

#include "core/ids.hpp"

BOOST_AUTO_TEST_SUITE(core_shard)

namespace {

using namespace svc::core;

} // namespace

// Every node routes by these values and every stored id and key carries them:
// a change of the hash would send teams to the wrong node after an upgrade and
// split a cluster of mixed releases. The values were computed once, outside
// this code, from the definition (FNV-1a 64, then the splitmix64 finaliser).
BOOST_AUTO_TEST_CASE(mix64_is_pinned) {
  BOOST_TEST(mix64("") == 0xf52a15e9a9b5e89bull);
  BOOST_TEST(mix64("a") == 0x02c0bdbf481420f8ull);
  BOOST_TEST(mix64("team_01KAK3R5N2W9X7Q4V6B8C0D1EF") == 0x465f237b0194c522ull);
  BOOST_TEST(int{shard_of_team("team_01KAK3R5N2W9X7Q4V6B8C0D1EF")} == 34);
}

// 100k team ids over 256 shards is 390.6 a shard; a binomial standard
// deviation is about 20, so [250, 550] fails only for a badly mixed hash.
BOOST_AUTO_TEST_CASE(shard_of_team_spreads_team_ids_evenly) {
  std::array<std::size_t, shard_count> teams{};
  for (int i = 0; i < 100000; ++i)
    ++teams[shard_of_team(make_id("team"))];
  for (std::size_t s = 0; s < shard_count; ++s)
    BOOST_TEST((teams[s] >= 250 && teams[s] <= 550), "shard " << s << " has " << teams[s] << " teams");
}

BOOST_AUTO_TEST_CASE(shard_of_key_secret_reads_the_first_two_hex_digits) {
  const std::string tail(62, '7');
  BOOST_TEST((shard_of_key_secret("00" + tail) == shard_id{0}));
  BOOST_TEST((shard_of_key_secret("0a" + tail) == shard_id{10}));
  BOOST_TEST((shard_of_key_secret("a0" + tail) == shard_id{160}));
  BOOST_TEST((shard_of_key_secret("ff" + tail) == shard_id{255}));
  BOOST_TEST((shard_of_key_secret("3c") == shard_id{60}));
}

BOOST_AUTO_TEST_CASE(shard_of_key_secret_refuses_what_is_not_lowercase_hex) {
  const std::string tail(62, '7');
  BOOST_TEST(!shard_of_key_secret(""));
  BOOST_TEST(!shard_of_key_secret("a"));
  BOOST_TEST(!shard_of_key_secret("FF" + tail)); // keys are lowercase
  BOOST_TEST(!shard_of_key_secret("g0" + tail));
  BOOST_TEST(!shard_of_key_secret("00" + tail + "x"));
  BOOST_TEST(!shard_of_key_secret("svc_live_00" + tail)); // the secret, not the key
}

BOOST_AUTO_TEST_CASE(shard_of_id_reads_the_head_of_the_random_part) {
  // 48 time bits are 10 characters, then the random part's top byte spans
  // characters 10 (5 bits) and 11 (its top 3 bits).
  BOOST_TEST((shard_of_id("img_0000000000" "0000000000000000") == shard_id{0}));
  BOOST_TEST((shard_of_id("img_0000000000" "ZW00000000000000") == shard_id{255}));
  BOOST_TEST((shard_of_id("img_0000000000" "Z3ZZZZZZZZZZZZZZ") == shard_id{248}));
  BOOST_TEST((shard_of_id("we_01KAK3R5N2" "08ZZZZZZZZZZZZZZ") == shard_id{2}));
  BOOST_TEST((shard_of_id("a_7ZZZZZZZZZ" "04ZZZZZZZZZZZZZZ") == shard_id{1}));
}

BOOST_AUTO_TEST_CASE(shard_of_id_refuses_other_shapes) {
  const std::string ulid = "01KAK3R5N2W9X7Q4V6B8C0D1EF";
  BOOST_REQUIRE(shard_of_id("img_" + ulid));
  BOOST_TEST(!shard_of_id(""));
  BOOST_TEST(!shard_of_id(ulid));             // no prefix
  BOOST_TEST(!shard_of_id("_" + ulid));       // empty prefix
  BOOST_TEST(!shard_of_id("img" + ulid));     // no separator
  BOOST_TEST(!shard_of_id("img-" + ulid));
  BOOST_TEST(!shard_of_id("img_" + ulid.substr(1)));
  BOOST_TEST(!shard_of_id("img_81KAK3R5N2W9X7Q4V6B8C0D1EF")); // over 128 bits
  BOOST_TEST(!shard_of_id("img_01KAK3R5N2W9X7Q4V6B8C0D1EU")); // not Crockford
}

BOOST_AUTO_TEST_SUITE_END()
