#pragma once
// Scenario `read`: the two reads issue 14 measures against nginx, GET
// /v1/images/{id} (of jobs the run created first, N per key) and GET
// /v1/team, in the share `--mix image=W,team=W` sets, with the keys in turn.
// Closed loop, each key's `reads` bucket is mirrored by a rate_pacer; open
// loop, reads arrive at the rate whatever the buckets say. A 200 is the
// answer wanted.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench/load/load_engine.hpp"
#include "bench/load/operation_mix.hpp"
#include "bench/load/requests.hpp"

namespace svc::bench {

/// A job the read run fetches, and the key (team) that made it.
struct read_job {
  std::size_t key = 0;
  std::string id;
};

/// The operations of `read`: "image", "team".
const std::vector<std::string>& read_operations();

/// Creates `per_key` images with each of `keys`, one at a time (a 429 waits
/// for its Retry-After). Empty, with the reason in `error`, when a create
/// does not answer 201.
std::vector<read_job> create_read_jobs(const target& server, const std::vector<std::string>& keys,
                                       const image_spec& image, std::size_t per_key, std::string& error);

/// One io thread's source; `paced` (closed loop) honours the rate-limit headers.
std::unique_ptr<load_source> make_read_source(const target& server, const std::vector<std::string>& keys,
                                              const std::vector<read_job>& jobs, const operation_mix& mix,
                                              bool paced);

} // namespace svc::bench
