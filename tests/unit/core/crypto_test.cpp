#include "core/crypto.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(core_crypto)

namespace {

using svc::core::to_hex;

std::string repeat(char c, std::size_t n) { return std::string(n, c); }

std::string hmac_hex(std::string_view key, std::string_view data) {
  return to_hex(svc::core::hmac_sha256(key, data));
}

} // namespace

// RFC 4231, section 4: HMAC-SHA-256 test cases 1-7.
BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case1) {
  BOOST_TEST(hmac_hex(repeat('\x0b', 20), "Hi There")
             == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case2_short_key) {
  BOOST_TEST(hmac_hex("Jefe", "what do ya want for nothing?")
             == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case3) {
  BOOST_TEST(hmac_hex(repeat('\xaa', 20), repeat('\xdd', 50))
             == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case4) {
  std::string key;
  for (int i = 1; i <= 25; ++i)
    key.push_back(static_cast<char>(i));
  BOOST_TEST(hmac_hex(key, repeat('\xcd', 50))
             == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case5_truncated) {
  auto mac = svc::core::hmac_sha256(repeat('\x0c', 20), "Test With Truncation");
  BOOST_TEST(to_hex(mac.data(), 16) == "a3b6167473100ee06e0c796c2955552b");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case6_key_longer_than_block) {
  BOOST_TEST(hmac_hex(repeat('\xaa', 131), "Test Using Larger Than Block-Size Key - Hash Key First")
             == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

BOOST_AUTO_TEST_CASE(hmac_sha256_rfc4231_case7_key_and_data_longer_than_block) {
  BOOST_TEST(hmac_hex(repeat('\xaa', 131),
                      "This is a test using a larger than block-size key and a larger than block-size data. "
                      "The key needs to be hashed before being used by the HMAC algorithm.")
             == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

// HMAC-SHA256 with an empty key (the key block all zeros): the published
// vectors for ("", "") and ("", the quick brown fox).
BOOST_AUTO_TEST_CASE(hmac_sha256_with_an_empty_key) {
  BOOST_TEST(hmac_hex("", "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
  BOOST_TEST(hmac_hex(std::string_view{}, "")
             == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
  BOOST_TEST(hmac_hex("", "The quick brown fox jumps over the lazy dog")
             == "fb011e6154a19b9a4c767373c305275a5a69e8b68b0b4c9200c383dced19a416");
  BOOST_TEST(hmac_hex("key", "The quick brown fox jumps over the lazy dog")
             == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
}

// Keys at the block size (64 bytes, used as they are) and past it (hashed
// first); the expected values come from HMAC written out over SHA-256
// (RFC 2104), not from OpenSSL's HMAC.
BOOST_AUTO_TEST_CASE(hmac_sha256_keys_at_and_past_the_block_size) {
  std::string key;
  for (int i = 0; i < 65; ++i)
    key.push_back(static_cast<char>(i));
  BOOST_TEST(hmac_hex(std::string_view{key}.substr(0, 64), "block")
             == "0c4195064dd4ca79599d2b8508c3f4c5f3805080dd6b451ca30e7d2da73a2c3d");
  BOOST_TEST(hmac_hex(key, "block") == "14f952ab1b86c57b32f958d5d1eff16dcf0b87097624748296dc953e05da894b");
  BOOST_TEST(hmac_hex(repeat('k', 1000), "") == "3a65925edb2217e97f45073614e390c7c1480d9a94796f0ae8d7fcd2ed37ff92");
}

// Each thread keeps one HMAC context, keyed anew by every call: no key or
// state of one call may show in the next, whatever their order.
BOOST_AUTO_TEST_CASE(hmac_sha256_calls_in_a_row_do_not_share_keys) {
  for (int round = 0; round < 3; ++round) {
    BOOST_TEST(hmac_hex("", "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
    BOOST_TEST(hmac_hex("Jefe", "what do ya want for nothing?")
               == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    BOOST_TEST(hmac_hex(std::string_view{}, "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
    BOOST_TEST(hmac_hex(repeat('\xaa', 131), "Test Using Larger Than Block-Size Key - Hash Key First")
               == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    BOOST_TEST(hmac_hex(repeat('\x0b', 20), "Hi There")
               == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }
}

BOOST_AUTO_TEST_CASE(hmac_sha256_on_many_threads_at_once) {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&wrong, t] {
      for (int i = 0; i < 2000; ++i) {
        bool ok = (i + t) % 2 == 0
                    ? hmac_hex("Jefe", "what do ya want for nothing?")
                          == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
                    : hmac_hex("", "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad";
        if (!ok)
          ++wrong;
      }
    });
  for (auto& th : threads)
    th.join();
  BOOST_TEST(wrong.load() == 0);
}

BOOST_AUTO_TEST_CASE(sha256_of_abc) {
  BOOST_TEST(to_hex(svc::core::sha256("abc"))
             == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(to_hex(svc::core::sha256(""))
             == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

BOOST_AUTO_TEST_CASE(sha256_in_pieces_equals_sha256_at_once) {
  std::string data(200000, '\0');
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<char>(i * 7 % 253);
  svc::core::sha256_stream stream;
  for (std::size_t at = 0; at < data.size(); at += 65536)
    stream.add(std::string_view{data}.substr(at, 65536));
  BOOST_TEST(to_hex(stream.finish()) == to_hex(svc::core::sha256(data)));
  stream.add("abc");
  BOOST_TEST(to_hex(stream.finish()) == to_hex(svc::core::sha256("abc")), "finish starts over");
  BOOST_TEST(to_hex(stream.finish()) == to_hex(svc::core::sha256("")));
}

BOOST_AUTO_TEST_CASE(to_hex_is_lowercase_two_digits_per_byte) {
  const uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff};
  BOOST_TEST(to_hex(bytes, 4) == "000fa0ff");
  BOOST_TEST(to_hex(bytes, 0) == "");
}

BOOST_AUTO_TEST_CASE(constant_time_equal_compares_content_and_length) {
  BOOST_TEST(svc::core::constant_time_equal("", ""));
  BOOST_TEST(svc::core::constant_time_equal("abc", "abc"));
  BOOST_TEST(!svc::core::constant_time_equal("abc", "abd"));
  BOOST_TEST(!svc::core::constant_time_equal("abc", "Abc"));
  BOOST_TEST(!svc::core::constant_time_equal("abc", "abcd"));
  BOOST_TEST(!svc::core::constant_time_equal("abc", ""));
  BOOST_TEST(svc::core::constant_time_equal(std::string_view{"a\0b", 3}, std::string_view{"a\0b", 3}));
  BOOST_TEST(!svc::core::constant_time_equal(std::string_view{"a\0b", 3}, std::string_view{"a\0c", 3}));
}

BOOST_AUTO_TEST_CASE(random_hex_has_the_asked_length) {
  auto a = svc::core::random_hex(32);
  BOOST_TEST(a.size() == 64u);
  BOOST_TEST(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  BOOST_TEST(a != svc::core::random_hex(32));
  BOOST_TEST(svc::core::random_bytes(7).size() == 7u);
}

// RFC 4648, section 10.
BOOST_AUTO_TEST_CASE(base64_rfc4648_vectors) {
  const std::pair<std::string, std::string> vectors[] = {
    {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (auto& [plain, encoded] : vectors) {
    BOOST_TEST(svc::core::base64_encode(plain) == encoded);
    auto decoded = svc::core::base64_decode(encoded);
    BOOST_REQUIRE(decoded.has_value());
    BOOST_TEST(*decoded == plain);
  }
}

BOOST_AUTO_TEST_CASE(base64_round_trips_binary_data) {
  std::string all;
  for (int i = 0; i < 256; ++i)
    all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n <= all.size(); n += 17) {
    auto data = all.substr(0, n) + std::string(n % 3, '\0'); // trailing zero bytes too
    auto encoded = svc::core::base64_encode(data);
    BOOST_TEST(encoded.size() % 4 == 0u);
    auto decoded = svc::core::base64_decode(encoded);
    BOOST_REQUIRE(decoded.has_value());
    BOOST_TEST(*decoded == data);
  }
  auto secret = svc::core::random_bytes(32);
  BOOST_TEST(svc::core::base64_decode(svc::core::base64_encode(secret)).value() == secret);
}

BOOST_AUTO_TEST_CASE(base64_rejects_malformed_input) {
  for (std::string_view bad : {"Z", "Zg", "Zg=", "Zm9vY", "Zm9v!A==", "Zm 9v", " Zg=", "Zg= ", "Zg==\n",
                               "====", "A===", "Zg=a", "=Zg=", "Zg==Zg==", "Zm9-", "Zm9_"}) {
    BOOST_TEST(!svc::core::base64_decode(bad).has_value(), "'" << bad << "' must be rejected");
  }
}

BOOST_AUTO_TEST_SUITE_END()
