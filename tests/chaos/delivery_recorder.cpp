#include "delivery_recorder.hpp"

#include <boost/json/parse.hpp>

#include "support/json_util.hpp"
#include "support/webhook_receiver_fixture.hpp"

namespace svc::chaos {

delivery_recorder::delivery_recorder(std::uint64_t seed, double failure_share)
  : rng_(seed), failure_share_(failure_share), receiver_(e2e::make_trusted_receiver()) {
  receiver_->set_handler([this](const receiver::received_request& r) { return on_request(r); });
}

delivery_recorder::~delivery_recorder() { receiver_->stop(); }

std::string delivery_recorder::url(const std::string& path) const { return receiver_->url(path); }

void delivery_recorder::learn_secret(const std::string& path, const std::string& secret) {
  std::lock_guard lock(mutex_);
  secrets_[path].push_back(secret);
}

void delivery_recorder::forget_secrets(const std::string& path) {
  std::lock_guard lock(mutex_);
  unchecked_paths_.insert(path);
}

receiver::reply delivery_recorder::on_request(const receiver::received_request& r) {
  auto event_id = r.header("Svc-Event-Id").value_or("");
  boost::system::error_code ec;
  auto envelope = boost::json::parse(r.body, ec);
  bool well_formed = !ec && !event_id.empty() && e2e::json_str(envelope, "id") == event_id;

  std::lock_guard lock(mutex_);
  ++totals_.requests;
  auto& counts = pairs_[r.target][event_id];
  if (counts.attempts++ == 0 && std::uniform_real_distribution<double>{}(rng_) < failure_share_) {
    ++totals_.failed_on_purpose;
    return {500, "failed on purpose: the campaign wants retries", {}, {}, false};
  }
  if (!well_formed)
    ++totals_.malformed;
  if (counts.acknowledged++ == 0)
    ++totals_.delivered;
  else
    ++totals_.duplicates;
  if (!signature_known(r.target, r))
    unverified_.push_back({r.target, event_id, r});
  return {};
}

bool delivery_recorder::signature_known(const std::string& path, const receiver::received_request& r) const {
  if (unchecked_paths_.count(path))
    return true;
  auto it = secrets_.find(path);
  if (it == secrets_.end())
    return false;
  for (auto& secret : it->second)
    if (e2e::svc_signature_valid(r, secret))
      return true;
  return false;
}

std::size_t delivery_recorder::delivered(const std::string& path, const std::string& event_id) const {
  std::lock_guard lock(mutex_);
  auto p = pairs_.find(path);
  if (p == pairs_.end())
    return 0;
  auto e = p->second.find(event_id);
  return e == p->second.end() ? 0 : e->second.acknowledged;
}

delivery_totals delivery_recorder::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

std::vector<unverified_delivery> delivery_recorder::take_unverified() {
  std::lock_guard lock(mutex_);
  std::vector<unverified_delivery> still;
  for (auto& d : unverified_)
    if (!signature_known(d.path, d.request))
      still.push_back(std::move(d));
  unverified_.clear();
  return still;
}

void delivery_recorder::forget_requests() { receiver_->clear(); }

} // namespace svc::chaos
