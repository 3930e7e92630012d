#pragma once
// Test fires: a signed synthetic event of a type, with a sample of that
// type's `data` as GET would show one, delivered to one endpoint like any
// other (`synthetic: true` in the envelope).

#include "actors/endpoint.hpp"

namespace svc::actors {

/// Commits the sample event and its delivery task (when the endpoint is
/// active), then schedules the task; the answer once durable.
caf::result<test_fire> fire_test(endpoint_self self, const context& ctx, const endpoint_services& services,
                                 const std::string& type, const std::string& version,
                                 const schema::correlation& cause);

} // namespace svc::actors
