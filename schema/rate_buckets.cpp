#include "schema/rate_buckets.hpp"

namespace svc::schema {

const std::vector<bucket_info>& bucket_table() {
  using b = bucket_class;
  static const std::vector<bucket_info> table{
    {b::images_post, "images_post", {120, 60}},
    {b::reads, "reads", {1200, 600}},
    {b::files_post, "files_post", {60, 30}},
    {b::webhook_endpoints_post, "webhook_endpoints_post", {10, 10}},
    {b::webhooks_test, "webhooks_test", {30, 30}},
    {b::webhook_replay_events, "webhook_replay_events", {1000, 100}},
    {b::anonymous, "anonymous", {600, 300}},
  };
  return table;
}

const bucket_info& info(bucket_class cls) { return bucket_table()[static_cast<std::size_t>(cls)]; }

std::string_view to_string(bucket_class cls) { return info(cls).name; }

std::optional<bucket_class> bucket_class_from_name(std::string_view name) {
  for (auto& row : bucket_table())
    if (row.name == name)
      return row.cls;
  return std::nullopt;
}

} // namespace svc::schema
