#pragma once
// How svcd proves itself to etcd and checks that it speaks to etcd: TLS that
// verifies etcd's certificate against a CA and presents svcd's own, and the
// login of an etcd RBAC user. Made once at start and shared by every
// etcd_client, which also share the login's token: etcd hands one out per
// login, and forgets it after its TTL, at its own restart or when its users
// and roles change, so a client that is told so logs in again.

#include <memory>
#include <mutex>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace svc::clients {

/// PEM files of the TLS toward etcd; `ca` empty means plain HTTP.
struct etcd_tls_files {
  std::string ca;   ///< the CA that signed etcd's server certificate
  std::string cert; ///< svcd's client certificate (etcd's --client-cert-auth); empty: none
  std::string key;  ///< its private key
};

class etcd_security {
public:
  /// Plain HTTP and no login.
  etcd_security() = default;
  /// TLS from `tls` (unless its ca is empty), logging in as `user` with
  /// `password` (unless `user` is empty). Throws std::runtime_error naming the
  /// file that cannot be loaded or the setting that makes no sense (a
  /// password over plain HTTP, a certificate without its key).
  etcd_security(const etcd_tls_files& tls, std::string user, std::string password);

  /// The TLS context every connection shares; null for plain HTTP.
  boost::asio::ssl::context* tls() const { return shared_ ? shared_->tls.get() : nullptr; }
  /// True when calls carry a login token.
  bool logs_in() const { return shared_ && !shared_->user.empty(); }
  /// The user, and the password to log in with.
  const std::string& user() const;
  const std::string& password() const;

  /// The token last handed out; empty when there is none yet.
  std::string token() const;
  /// Keeps `token`, handed out by a login, for every client.
  void keep_token(std::string token) const;
  /// Drops `stale` if it is still the kept token (etcd no longer takes it);
  /// a newer token kept by another client meanwhile stays.
  void drop_token(const std::string& stale) const;

private:
  struct shared_state {
    std::shared_ptr<boost::asio::ssl::context> tls;
    std::string user;
    std::string password;
    mutable std::mutex token_mutex;
    std::string token;
  };
  std::shared_ptr<shared_state> shared_;
};

} // namespace svc::clients
