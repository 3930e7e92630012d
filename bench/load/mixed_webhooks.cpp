#include "bench/load/mixed_webhooks.hpp"

#include "bench/load/blocking_client.hpp"
#include "bench/load/webhook_endpoints.hpp"
#include "bench/receiver/test_ca.hpp"

namespace svc::bench {
namespace {

// The receiver keeps every request it answers; it is emptied this often so a
// long run's memory stays flat (the checker keeps what counts).
constexpr uint64_t receiver_trim_count = 1024;

receiver::receiver_options receiver_for(const std::string& ca_dir) {
  receiver::receiver_options o;
  o.tls = receiver::load_or_make_test_pki(ca_dir).server;
  return o;
}

} // namespace

mixed_webhooks::mixed_webhooks(const std::string& ca_dir, std::size_t endpoints)
  : checker_(endpoints), receiver_(receiver_for(ca_dir)) {
  // The handler runs outside the receiver's lock, so it may empty the log.
  receiver_.set_handler([this](const receiver::received_request& req) {
    auto reply = checker_.check(req);
    if (handled_.fetch_add(1, std::memory_order_relaxed) % receiver_trim_count == receiver_trim_count - 1)
      receiver_.clear();
    return reply;
  });
}

std::string mixed_webhooks::register_endpoints(const target& server, const std::vector<std::string>& keys,
                                               std::size_t per_team) {
  blocking_client api(server);
  return bench::register_endpoints(api, server, keys, per_team, "all", receiver_, checker_);
}

void mixed_webhooks::open_window(std::chrono::milliseconds window) {
  const auto now = delivery_checker::wall::now();
  checker_.set_window(now, now + window);
}

} // namespace svc::bench
