#include "bench/load/delivery_checker.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <optional>

#include "core/time_format.hpp"
#include "schema/webhook_signature.hpp"

namespace svc::bench {
namespace {

namespace json = boost::json;
using std::chrono::nanoseconds;

// The endpoint index in a `/hooks/<i>` target; SIZE_MAX for anything else.
std::size_t endpoint_index(const std::string& path) {
  constexpr std::string_view prefix = "/hooks/";
  if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0
      || path.find_first_not_of("0123456789", prefix.size()) != std::string::npos || path.size() > prefix.size() + 9)
    return SIZE_MAX;
  return std::stoul(path.substr(prefix.size()));
}

} // namespace

delivery_checker::delivery_checker(std::size_t endpoints) : secrets_(endpoints) {}

void delivery_checker::set_secret(std::size_t index, std::string secret) {
  secrets_[index] = {std::move(secret)};
  known_.store(index + 1, std::memory_order_release);
}

void delivery_checker::set_window(wall::time_point start, wall::time_point end) {
  std::lock_guard lock(mutex_);
  window_start_ = start;
  window_end_ = end;
}

void delivery_checker::on_progress(std::function<void()> f) {
  std::lock_guard lock(mutex_);
  progress_ = std::move(f);
}

receiver::reply delivery_checker::check(const receiver::received_request& r) {
  const auto index = endpoint_index(r.target);
  const auto signature = r.header("Svc-Webhook-Signature");
  bool verified = false;
  if (index < known_.load(std::memory_order_acquire) && signature) {
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(r.received_at.time_since_epoch()).count();
    verified = schema::verify_signature_header(*signature, r.body, secrets_[index], now) == schema::signature_check::ok;
  }
  std::string id, type;
  std::optional<wall::time_point> created;
  json::error_code ec;
  auto v = json::parse(r.body, ec);
  if (!ec && v.is_object()) {
    auto& o = v.as_object();
    auto text = [&o](const char* name) {
      auto* m = o.if_contains(name);
      return m && m->is_string() ? std::string(m->as_string()) : std::string{};
    };
    id = text("id");
    type = text("type");
    created = core::parse_iso8601(text("created_at"));
  }
  const bool well_formed = index < secrets_.size() && !id.empty() && created && r.header("Svc-Event-Id") == id;

  std::lock_guard lock(mutex_);
  counts_.signature_failures += verified ? 0 : 1;
  if (!well_formed) {
    ++counts_.malformed;
    return {};
  }
  ++counts_.types[type];
  if (!seen_.insert(std::to_string(index) + "/" + id).second) {
    ++counts_.duplicates;
    return {};
  }
  received_.fetch_add(1, std::memory_order_relaxed);
  if (verified && r.received_at >= window_start_ && r.received_at < window_end_) {
    ++counts_.deliveries;
    counts_.latency.record(std::max(nanoseconds{0}, std::chrono::duration_cast<nanoseconds>(r.received_at - *created)));
    const auto second = static_cast<std::size_t>(
      std::chrono::duration_cast<std::chrono::seconds>(r.received_at - window_start_).count());
    if (counts_.per_second.size() <= second)
      counts_.per_second.resize(second + 1);
    ++counts_.per_second[second];
  }
  cv_.notify_all();
  if (progress_)
    progress_();
  return {}; // 200, no body
}

bool delivery_checker::wait_received(uint64_t n, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  return cv_.wait_until(lock, deadline, [&] { return received() >= n; });
}

delivery_counts delivery_checker::counts() {
  std::lock_guard lock(mutex_);
  auto out = counts_;
  out.received = received();
  return out;
}

} // namespace svc::bench
