#pragma once
// The Cog stand-in's outbound webhooks (engines.md 2.5): asynchronous POSTs on
// the server's io thread, so serving HTTP never waits on a receiver; one
// prediction's in the order sent; a terminal one retried as Cog retries it.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

namespace svc::test {

/// One webhook to POST.
struct cog_webhook_post {
  std::string url;           ///< `http://host[:port]/path`; only loopback hosts are tried
  std::string body;          ///< JSON
  std::string authorization; ///< the Authorization header; none when empty
  std::string user_agent;
  bool retried = false;      ///< on 429/500/502/503/504 and network errors, up to 12 more tries, 100 ms * 2^n apart
};

/// Sends on `ioc`; every call on its thread.
class cog_webhook_sender {
public:
  explicit cog_webhook_sender(boost::asio::io_context& ioc) : ioc_(ioc) {}
  cog_webhook_sender(const cog_webhook_sender&) = delete;
  cog_webhook_sender& operator=(const cog_webhook_sender&) = delete;

  /// Sends `post` after the earlier posts of `lane` are done; `attempted` gets each try's HTTP
  /// status (0 when there was no answer), always later, never inside this call.
  void send(std::uint64_t lane, cog_webhook_post post, std::function<void(int)> attempted);
  /// Abandons the posts of lanes up to `last` (closes their connections, cancels their backoffs), as
  /// a process that dies loses them; no `attempted` for them afterwards.
  void abandon(std::uint64_t last);
  /// Abandons every post; `send` does nothing afterwards.
  void stop();

private:
  struct delivery;
  void attempt(const std::shared_ptr<delivery>& d);
  void done(const std::shared_ptr<delivery>& d, int answer);

  boost::asio::io_context& ioc_;
  std::map<std::uint64_t, std::deque<std::shared_ptr<delivery>>> lanes_; // the front of each is in flight
  bool stopped_ = false;
};

} // namespace svc::test
