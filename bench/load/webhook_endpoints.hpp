#pragma once
// Registers svc-bench's receiver as webhook endpoints of each team before a
// run that counts deliveries (scenarios `webhook` and `mixed`).

#include <cstddef>
#include <string>
#include <vector>

#include "bench/load/blocking_client.hpp"
#include "bench/load/delivery_checker.hpp"
#include "bench/load/target.hpp"
#include "bench/receiver/https_receiver.hpp"

namespace svc::bench {

/// Registers `per_team` endpoints for each of `keys` at `receiver`'s
/// `/hooks/<i>` (i counts over all keys, from 0) and gives each secret to
/// `checker`. `subscribe`: `all` (["*"]), `cancelled` (["image.cancelled"]) or
/// `mixed` (even i all, odd i cancelled). Returns what went wrong, or "".
std::string register_endpoints(blocking_client& api, const target& server, const std::vector<std::string>& keys,
                               std::size_t per_team, const std::string& subscribe,
                               const receiver::https_receiver& receiver, delivery_checker& checker);

} // namespace svc::bench
