#pragma once
// Scenario `create`: POST /v1/images. Closed loop, C keep-alive connections
// each send a create, wait for its answer and send the next; connection i
// sends with key i mod K, so K teams share the load, and each key's
// `images_post` bucket is mirrored by a rate_pacer so limits left at their
// defaults are not hammered. Open loop, creates arrive at the rate with the
// keys in turn. A 201 is the answer wanted.

#include <memory>
#include <string>
#include <vector>

#include "bench/load/load_engine.hpp"
#include "bench/load/requests.hpp"

namespace svc::bench {

/// The operations of `create`: just "create".
const std::vector<std::string>& create_operations();

/// One io thread's source; `paced` (closed loop) honours the rate-limit headers.
std::unique_ptr<load_source> make_create_source(const target& server, const std::vector<std::string>& keys,
                                                const image_spec& image, bool paced);

} // namespace svc::bench
