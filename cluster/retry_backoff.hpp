#pragma once
// How long the cluster waits before trying again after a failure: a peer's
// link that dropped or never came up, an etcd watch or lease that broke.
// The wait doubles from 200 ms up to 5 s, so a node that is gone is asked
// a few times a second at first and then every 5 s.

#include <algorithm>
#include <chrono>

namespace svc::cluster {

/// The first wait after a failure, and the wait after a success.
constexpr std::chrono::milliseconds first_backoff{200};
/// The longest wait.
constexpr std::chrono::milliseconds longest_backoff{5000};

/// The wait after another failure that followed a wait of `b`.
inline std::chrono::milliseconds next_backoff(std::chrono::milliseconds b) { return std::min(b * 2, longest_backoff); }

} // namespace svc::cluster
