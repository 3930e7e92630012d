#include "clients/etcd_security.hpp"

#include <stdexcept>
#include <utility>

#include <boost/asio/ssl/context.hpp>

namespace svc::clients {
namespace {

namespace ssl = boost::asio::ssl;

std::shared_ptr<ssl::context> tls_context(const etcd_tls_files& files) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::no_sslv2 | ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                   ssl::context::no_tlsv1_1);
  ctx->set_verify_mode(ssl::verify_peer);
  // Each load names its file: an operator's typo is the usual cause.
  auto load = [](const std::string& what, const std::string& path, auto step) {
    boost::system::error_code ec;
    step(ec);
    if (ec)
      throw std::runtime_error(what + " " + path + " cannot be used: " + ec.message());
  };
  load("--etcd-ca", files.ca, [&](auto& ec) { ctx->load_verify_file(files.ca, ec); });
  if (!files.cert.empty()) {
    load("--etcd-cert", files.cert, [&](auto& ec) { ctx->use_certificate_chain_file(files.cert, ec); });
    load("--etcd-key", files.key, [&](auto& ec) { ctx->use_private_key_file(files.key, ssl::context::pem, ec); });
  }
  return ctx;
}

} // namespace

etcd_security::etcd_security(const etcd_tls_files& tls, std::string user, std::string password)
    : shared_(std::make_shared<shared_state>()) {
  if (tls.cert.empty() != tls.key.empty())
    throw std::runtime_error("--etcd-cert and --etcd-key go together");
  if (tls.ca.empty() && !tls.cert.empty())
    throw std::runtime_error("--etcd-cert needs --etcd-ca: a client certificate is only shown over TLS");
  if (tls.ca.empty() && !user.empty())
    throw std::runtime_error("--etcd-user needs --etcd-ca: its password is never sent in clear");
  if (user.empty() != password.empty())
    throw std::runtime_error("--etcd-user and its password file go together");
  if (!tls.ca.empty())
    shared_->tls = tls_context(tls);
  shared_->user = std::move(user);
  shared_->password = std::move(password);
}

const std::string& etcd_security::user() const {
  static const std::string none;
  return shared_ ? shared_->user : none;
}

const std::string& etcd_security::password() const {
  static const std::string none;
  return shared_ ? shared_->password : none;
}

std::string etcd_security::token() const {
  if (!shared_)
    return {};
  std::lock_guard lock{shared_->token_mutex};
  return shared_->token;
}

void etcd_security::keep_token(std::string token) const {
  if (!shared_)
    return;
  std::lock_guard lock{shared_->token_mutex};
  shared_->token = std::move(token);
}

void etcd_security::drop_token(const std::string& stale) const {
  if (!shared_)
    return;
  std::lock_guard lock{shared_->token_mutex};
  if (shared_->token == stale)
    shared_->token.clear();
}

} // namespace svc::clients
