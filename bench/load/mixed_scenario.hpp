#pragma once
// Scenario `mixed`: what a service in use sees, for load-testers to point at
// any svcd. Creates (POST /v1/images), polls of the jobs created (GET
// /v1/images/{id} until terminal, as a client would), downloads of the
// outputs of succeeded jobs (their signed URLs, no key), uploads (POST
// /v1/files, a generated PNG) in the share `--mix` sets, with the keys in
// turn; and, with a test CA, webhook deliveries of those jobs' events to
// svc-bench's own receiver (mixed_webhooks).
//
// An operation with nothing to act on yet goes to the next one: a download
// with no output known (or the anonymous bucket of output URLs empty, which
// no team limit raises) polls instead, a poll with no job in hand creates.
// The answers wanted: create 201, poll 200, download 200, upload 201.

#include <memory>
#include <string>
#include <vector>

#include "bench/load/load_engine.hpp"
#include "bench/load/operation_mix.hpp"
#include "bench/load/requests.hpp"

namespace svc::bench {

/// The operations of `mixed`: "create", "poll", "download", "upload".
const std::vector<std::string>& mixed_operations();

/// A `side` x `side` PNG of a colour gradient, the bytes each upload sends.
std::string make_upload_png(int side);

/// One io thread's source; `paced` (closed loop) honours the rate-limit
/// headers of every team bucket (downloads always honour the anonymous one).
std::unique_ptr<load_source> make_mixed_source(const target& server, const std::vector<std::string>& keys,
                                               const image_spec& image, const std::string& upload_png,
                                               const operation_mix& mix, bool paced);

} // namespace svc::bench
