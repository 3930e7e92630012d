#pragma once
// A throwaway PKI made on the spot for tests, benches and the demo: a CA and
// a server certificate it signs for 127.0.0.1 and localhost, or a self-signed
// server certificate that nobody trusts. EC P-256 keys, SHA-256 signatures.

#include <filesystem>
#include <string>

namespace svc::receiver {

/// A certificate and its private key, both PEM.
struct pem_identity {
  std::string cert;
  std::string key; ///< PKCS#8, unencrypted
};

/// A CA and a server certificate it signed (`IP:127.0.0.1`, `DNS:localhost`).
struct test_pki {
  pem_identity ca;     ///< `ca.key` is empty when loaded from files
  pem_identity server;
};

/// A new CA and server certificate, valid from an hour ago for `days` days.
/// Throws std::runtime_error if OpenSSL fails.
test_pki make_test_pki(int days = 30);

/// A cluster node's certificate signed by `ca` (whose key it needs): the
/// server names plus the SAN URI `urn:svc:node:<node_id>` that proves the
/// node id to the other members.
pem_identity make_node_identity(const pem_identity& ca, const std::string& node_id, int days = 30);

/// A client certificate signed by `ca` (whose key it needs) with no
/// CommonName: etcd 3.4's JSON gateway refuses a client whose certificate has one.
pem_identity make_client_identity(const pem_identity& ca, int days = 30);

/// A self-signed server certificate for the same names, signed by no CA.
pem_identity make_untrusted_server(int days = 30);

/// Writes `ca.pem`, `server.pem` and `server.key` (mode 0600) into `dir`,
/// creating it; the CA key is not written. Throws std::runtime_error on failure.
void write_test_pki(const test_pki& pki, const std::filesystem::path& dir);

/// The set in `dir` if its three files exist, otherwise a new one written there.
test_pki load_or_make_test_pki(const std::filesystem::path& dir);

} // namespace svc::receiver
