#include "core/crypto.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace svc::core {
namespace {

// OpenSSL 3's one-shot SHA256() and HMAC(), and EVP_sha256() in an init, look
// their algorithm up by name on every call (under a lock shared by every
// thread) and make a context for it: for the short inputs here (a key secret
// on every request, an output URL), more work than the hashing. The algorithms
// are fetched once, and each thread keeps one HMAC context that every call
// keys anew.
const EVP_MD* sha256_algorithm() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr)
    throw std::runtime_error("OpenSSL has no SHA-256");
  return md;
}

struct hmac_context {
  EVP_MAC_CTX* ctx = nullptr;
  hmac_context() {
    static EVP_MAC* const mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    char digest_name[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
                           OSSL_PARAM_construct_end()};
    if (mac == nullptr || (ctx = EVP_MAC_CTX_new(mac)) == nullptr || EVP_MAC_CTX_set_params(ctx, params) != 1)
      throw std::runtime_error("OpenSSL could not make an HMAC-SHA256 context");
  }
  ~hmac_context() { EVP_MAC_CTX_free(ctx); }
  hmac_context(const hmac_context&) = delete;
  hmac_context& operator=(const hmac_context&) = delete;
};

} // namespace

digest sha256(std::string_view data) {
  digest out{};
  if (EVP_Digest(data.data(), data.size(), out.data(), nullptr, sha256_algorithm(), nullptr) != 1)
    throw std::runtime_error("OpenSSL could not hash");
  return out;
}

sha256_stream::sha256_stream() : ctx_{EVP_MD_CTX_new()} {
  if (ctx_ == nullptr || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), sha256_algorithm(), nullptr) != 1)
    throw std::runtime_error("OpenSSL could not start a SHA-256");
}

sha256_stream::~sha256_stream() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void sha256_stream::add(std::string_view data) {
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data.data(), data.size());
}

digest sha256_stream::finish() {
  digest out{};
  auto* ctx = static_cast<EVP_MD_CTX*>(ctx_);
  EVP_DigestFinal_ex(ctx, out.data(), nullptr);
  EVP_DigestInit_ex(ctx, sha256_algorithm(), nullptr);
  return out;
}

digest hmac_sha256(std::string_view key, std::string_view data) {
  thread_local hmac_context hmac;
  // To EVP_MAC_init a null key means "the previous one": an empty key must not be null.
  static constexpr unsigned char no_key = 0;
  auto* k = key.empty() ? &no_key : reinterpret_cast<const unsigned char*>(key.data());
  digest out{};
  std::size_t len = 0;
  if (EVP_MAC_init(hmac.ctx, k, key.size(), nullptr) != 1
      || EVP_MAC_update(hmac.ctx, reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1
      || EVP_MAC_final(hmac.ctx, out.data(), &len, out.size()) != 1)
    throw std::runtime_error("OpenSSL could not compute an HMAC-SHA256");
  return out;
}

std::string to_hex(const uint8_t* bytes, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1)
    throw std::runtime_error("RAND_bytes failed"); // only at start-up or key creation
  return out;
}

std::string random_hex(std::size_t n) {
  auto bytes = random_bytes(n);
  return to_hex(reinterpret_cast<const uint8_t*>(bytes.data()), n);
}

std::string base64_encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  auto n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                           reinterpret_cast<const unsigned char*>(data.data()),
                           static_cast<int>(data.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0)
    return std::nullopt;
  // EVP_DecodeBlock also takes '=' inside the text ("Zg==Zg==", "===="); allow
  // at most two, and only at the end.
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=')
    ++padding;
  for (std::size_t i = 0; i + padding < text.size(); ++i) {
    char ch = text[i];
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '+' || ch == '/'))
      return std::nullopt;
  }
  std::string out(3 * text.size() / 4, '\0');
  auto n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                           reinterpret_cast<const unsigned char*>(text.data()),
                           static_cast<int>(text.size()));
  if (n < 0)
    return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes; drop them.
  auto pad = text.empty() ? 0 : (text.back() == '=') + (text.size() > 1 && text[text.size() - 2] == '=');
  out.resize(static_cast<std::size_t>(n) - static_cast<std::size_t>(pad));
  return out;
}

} // namespace svc::core
