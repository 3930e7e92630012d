#pragma once
// How a node's certificate names the node: one subjectAltName URI
// `urn:svc:node:<node id>`. The cluster gate takes a peer for the node its
// certificate names, and svcd refuses to start on a certificate that does
// not name its own --node-id.

#include <optional>
#include <string>
#include <string_view>

#include <openssl/x509.h>

namespace svc::cluster {

/// The SAN URI prefix before the node id.
inline constexpr std::string_view node_uri_prefix = "urn:svc:node:";

/// The node id `cert` names; nullopt when it names none, several, or one
/// that breaks the node id rule (core::is_node_id).
std::optional<std::string> node_named_by(X509* cert);

/// The node id the PEM certificate in file `path` names; nullopt with `error` set.
std::optional<std::string> node_named_by_file(const std::string& path, std::string& error);

} // namespace svc::cluster
