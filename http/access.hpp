#pragma once
// What every answered request leaves behind: its sample in the latency
// histogram (listener, route template, method, status class) and one access
// log line with its id, route, status, duration, bytes, team, key and peer.

#include <cstdint>

#include "http/request_context.hpp"

namespace svc::http {

/// Records the answer `ctx` is about to send: `status`, with a body of `bytes`.
void record_answer(const request_context& ctx, unsigned status, uint64_t bytes);

} // namespace svc::http
