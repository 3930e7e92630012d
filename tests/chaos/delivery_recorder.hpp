#pragma once
// The HTTPS receiver behind every webhook endpoint of the campaign (one path
// per endpoint) and what reached it. It lives in the driver, so it sees every
// delivery of the run across svcd's kills. The first attempt of an event at
// an endpoint fails on purpose now and then (500), so retries run too; every
// later attempt is acknowledged, so no delivery ends as a dead letter.
// Signatures are checked against the secrets the clients were given.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bench/receiver/https_receiver.hpp"

namespace svc::chaos {

/// What reached the receiver in all.
struct delivery_totals {
  std::uint64_t requests = 0;          ///< every request, failed on purpose or not
  std::uint64_t failed_on_purpose = 0; ///< first attempts answered 500
  std::uint64_t delivered = 0;         ///< distinct (endpoint, event) pairs acknowledged at least once
  std::uint64_t duplicates = 0;        ///< acknowledged deliveries of a pair beyond its first
  std::uint64_t malformed = 0;         ///< body id and Svc-Event-Id disagree, or no JSON envelope
};

/// A delivery whose signature matched no secret of its endpoint that the
/// clients had been given.
struct unverified_delivery {
  std::string path;
  std::string event_id;
  receiver::received_request request;
};

class delivery_recorder {
public:
  /// Starts the receiver (a certificate of the e2e test CA). `failure_share`
  /// of first attempts are answered 500, chosen by an RNG seeded with `seed`.
  delivery_recorder(std::uint64_t seed, double failure_share);
  ~delivery_recorder();

  /// `https://127.0.0.1:PORT` + `path`: the URL of one endpoint.
  std::string url(const std::string& path) const;
  /// A secret the clients were given for the endpoint at `path`.
  void learn_secret(const std::string& path, const std::string& secret);
  /// The endpoint at `path` may sign with a secret nobody was given (its
  /// rotation went unanswered): its signatures are not checked any more.
  void forget_secrets(const std::string& path);

  /// How often (path, event) was acknowledged.
  std::size_t delivered(const std::string& path, const std::string& event_id) const;
  /// The counts so far.
  delivery_totals totals() const;
  /// Deliveries that still match no secret known for their endpoint (checked
  /// again now, since a rotation's answer may arrive after its first
  /// delivery); they are forgotten once returned.
  std::vector<unverified_delivery> take_unverified();
  /// Drops the receiver's own copy of every request (this class keeps counts).
  void forget_requests();

private:
  receiver::reply on_request(const receiver::received_request& r);
  bool signature_known(const std::string& path, const receiver::received_request& r) const;

  struct pair_counts {
    std::uint32_t attempts = 0;
    std::uint32_t acknowledged = 0;
  };
  mutable std::mutex mutex_;
  std::mt19937_64 rng_;
  double failure_share_;
  std::map<std::string, std::unordered_map<std::string, pair_counts>> pairs_; ///< path -> event id -> counts
  std::map<std::string, std::vector<std::string>> secrets_;                   ///< path -> secrets given out
  std::set<std::string> unchecked_paths_;
  std::vector<unverified_delivery> unverified_;
  delivery_totals totals_;
  std::unique_ptr<receiver::https_receiver> receiver_; ///< last: stops before what its handler uses
};

} // namespace svc::chaos
