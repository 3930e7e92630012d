#include "cluster/node_certificate.hpp"

#include <cstdio>
#include <memory>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "core/shard.hpp"

namespace svc::cluster {

std::optional<std::string> node_named_by(X509* cert) {
  if (!cert)
    return std::nullopt;
  std::unique_ptr<GENERAL_NAMES, decltype(&GENERAL_NAMES_free)> names{
    static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr)), &GENERAL_NAMES_free};
  if (!names)
    return std::nullopt;
  std::optional<std::string> found;
  for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
    auto* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type != GEN_URI)
      continue;
    auto* uri = name->d.uniformResourceIdentifier;
    std::string_view text{reinterpret_cast<const char*>(ASN1_STRING_get0_data(uri)),
                          static_cast<std::size_t>(ASN1_STRING_length(uri))};
    if (text.substr(0, node_uri_prefix.size()) != node_uri_prefix)
      continue;
    auto id = text.substr(node_uri_prefix.size());
    if (found || !core::is_node_id(id))
      return std::nullopt; // two names, or one no node may have: not a node's certificate
    found = std::string{id};
  }
  return found;
}

std::optional<std::string> node_named_by_file(const std::string& path, std::string& error) {
  std::unique_ptr<FILE, decltype(&std::fclose)> file{std::fopen(path.c_str(), "r"), &std::fclose};
  if (!file) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  std::unique_ptr<X509, decltype(&X509_free)> cert{PEM_read_X509(file.get(), nullptr, nullptr, nullptr), &X509_free};
  if (!cert) {
    error = path + " holds no PEM certificate";
    return std::nullopt;
  }
  auto id = node_named_by(cert.get());
  if (!id)
    error = path + " names no node: it needs one subjectAltName URI " + std::string{node_uri_prefix} + "<node id>";
  return id;
}

} // namespace svc::cluster
