#include "bench/receiver/test_ca.hpp"

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace svc::receiver {
namespace {

struct free_pkey { void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); } };
struct free_x509 { void operator()(X509* p) const { X509_free(p); } };
struct free_bio { void operator()(BIO* p) const { BIO_free(p); } };
struct free_bn { void operator()(BIGNUM* p) const { BN_free(p); } };
struct free_ext { void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); } };
using pkey_ptr = std::unique_ptr<EVP_PKEY, free_pkey>;
using x509_ptr = std::unique_ptr<X509, free_x509>;

[[noreturn]] void fail(const char* what) {
  char buf[256] = "unknown error";
  if (auto e = ERR_get_error())
    ERR_error_string_n(e, buf, sizeof buf);
  ERR_clear_error();
  throw std::runtime_error(std::string("test CA: ") + what + ": " + buf);
}

void check(int ok, const char* what) {
  if (ok != 1)
    fail(what);
}

pkey_ptr new_key() {
  pkey_ptr key{EVP_EC_gen("P-256")};
  if (!key)
    fail("EC key generation");
  return key;
}

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, free_ext> ext{X509V3_EXT_conf_nid(nullptr, &ctx, nid, value)};
  if (!ext)
    fail("certificate extension");
  check(X509_add_ext(cert, ext.get(), -1), "adding an extension");
}

// A v3 certificate for `key` named `cn` (no CommonName when null); signed later by the issuer.
x509_ptr new_cert(EVP_PKEY* key, const char* cn, int days) {
  x509_ptr cert{X509_new()};
  if (!cert)
    fail("X509_new");
  check(X509_set_version(cert.get(), 2), "version");
  std::unique_ptr<BIGNUM, free_bn> serial{BN_new()};
  check(BN_rand(serial.get(), 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY), "serial");
  if (!BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())))
    fail("serial");
  if (!X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) ||
      !X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(days) * 86400))
    fail("validity");
  check(X509_set_pubkey(cert.get(), key), "public key");
  auto* name = X509_get_subject_name(cert.get());
  check(X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("Svc tests"), -1,
                                   -1, 0),
        "subject");
  if (cn)
    check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn), -1, -1, 0),
          "subject");
  return cert;
}

// Makes `cert` a server certificate for 127.0.0.1 and localhost issued by
// `issuer` and signed with `signer` (`cert` and its own key when self-signed);
// `signing` names the step in the error.
void issue_server_cert(X509* cert, X509* issuer, EVP_PKEY* signer, const char* signing,
                       const std::string& alt_names = "IP:127.0.0.1,DNS:localhost") {
  check(X509_set_issuer_name(cert, X509_get_subject_name(issuer)), "issuer");
  add_ext(cert, issuer, NID_basic_constraints, "critical,CA:FALSE");
  add_ext(cert, issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(cert, issuer, NID_ext_key_usage, "serverAuth,clientAuth"); // clientAuth: cluster nodes present it as TLS clients too
  add_ext(cert, issuer, NID_subject_alt_name, alt_names.c_str());
  add_ext(cert, issuer, NID_subject_key_identifier, "hash");
  add_ext(cert, issuer, NID_authority_key_identifier, "keyid:always");
  if (!X509_sign(cert, signer, EVP_sha256()))
    fail(signing);
}

std::string to_pem(X509* cert) {
  std::unique_ptr<BIO, free_bio> bio{BIO_new(BIO_s_mem())};
  check(PEM_write_bio_X509(bio.get(), cert), "PEM certificate");
  char* data = nullptr;
  long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

std::string to_pem(EVP_PKEY* key) {
  std::unique_ptr<BIO, free_bio> bio{BIO_new(BIO_s_mem())};
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr), "PEM key");
  char* data = nullptr;
  long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

void write_file(const std::filesystem::path& path, const std::string& text, bool secret) {
  auto tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (secret)
      std::filesystem::permissions(tmp, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    out << text;
    if (!out.flush())
      throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in)
    throw std::runtime_error("cannot read " + path.string());
  return s.str();
}

// A certificate named `cn` for `alt_names`, signed by `ca` (whose key it needs).
pem_identity issued_by(const pem_identity& ca, const char* cn, const std::string& alt_names, const char* signing,
                       int days) {
  std::unique_ptr<BIO, free_bio> cert_bio{BIO_new_mem_buf(ca.cert.data(), static_cast<int>(ca.cert.size()))};
  std::unique_ptr<BIO, free_bio> key_bio{BIO_new_mem_buf(ca.key.data(), static_cast<int>(ca.key.size()))};
  x509_ptr issuer{PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr)};
  pkey_ptr issuer_key{PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr)};
  if (!issuer || !issuer_key)
    fail("reading the CA (its key is not kept when loaded from files)");
  auto key = new_key();
  auto cert = new_cert(key.get(), cn, days);
  issue_server_cert(cert.get(), issuer.get(), issuer_key.get(), signing, alt_names);
  return {to_pem(cert.get()), to_pem(key.get())};
}

} // namespace

test_pki make_test_pki(int days) {
  auto ca_key = new_key();
  auto ca = new_cert(ca_key.get(), "Svc test CA", days);
  check(X509_set_issuer_name(ca.get(), X509_get_subject_name(ca.get())), "issuer");
  add_ext(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE,pathlen:0");
  add_ext(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
  add_ext(ca.get(), ca.get(), NID_subject_key_identifier, "hash");
  if (!X509_sign(ca.get(), ca_key.get(), EVP_sha256()))
    fail("signing the CA");

  auto server_key = new_key();
  auto server = new_cert(server_key.get(), "localhost", days);
  issue_server_cert(server.get(), ca.get(), ca_key.get(), "signing the server certificate");

  return {{to_pem(ca.get()), to_pem(ca_key.get())}, {to_pem(server.get()), to_pem(server_key.get())}};
}

pem_identity make_node_identity(const pem_identity& ca, const std::string& node_id, int days) {
  return issued_by(ca, node_id.c_str(), "IP:127.0.0.1,DNS:localhost,URI:urn:svc:node:" + node_id,
                   "signing a node certificate", days);
}

pem_identity make_client_identity(const pem_identity& ca, int days) {
  return issued_by(ca, nullptr, "IP:127.0.0.1,DNS:localhost", "signing a client certificate", days);
}

pem_identity make_untrusted_server(int days) {
  auto key = new_key();
  auto cert = new_cert(key.get(), "localhost", days);
  issue_server_cert(cert.get(), cert.get(), key.get(), "self-signing");
  return {to_pem(cert.get()), to_pem(key.get())};
}

void write_test_pki(const test_pki& pki, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  write_file(dir / "ca.pem", pki.ca.cert, false);
  write_file(dir / "server.key", pki.server.key, true);
  write_file(dir / "server.pem", pki.server.cert, false);
}

test_pki load_or_make_test_pki(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (fs::exists(dir / "ca.pem") && fs::exists(dir / "server.pem") && fs::exists(dir / "server.key")) {
    test_pki pki;
    pki.ca.cert = read_file(dir / "ca.pem");
    pki.server.cert = read_file(dir / "server.pem");
    pki.server.key = read_file(dir / "server.key");
    return pki;
  }
  auto pki = make_test_pki();
  write_test_pki(pki, dir);
  return pki;
}

} // namespace svc::receiver
