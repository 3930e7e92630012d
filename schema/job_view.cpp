#include "schema/job_view.hpp"

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/output_url.hpp"
#include "schema/views.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

json::value optional_time(const std::optional<core::time_point>& t) {
  return t ? json::value(core::format_iso8601(*t)) : json::value(nullptr);
}

} // namespace

json::value job_view(const job_record& r, const output_signer& signer) {
  json::array loras;
  for (auto& l : r.loras)
    loras.push_back(json::object{{"lora", l.lora_id}, {"slug", l.slug}, {"weight", json_number(l.weight)}});
  json::array urls, outputs;
  if (r.status == job_status::succeeded && r.outputs_expire_at) {
    auto exp = core::to_unix_ms(*r.outputs_expire_at) / 1000;
    for (std::size_t i = 0; i < r.outputs.size(); ++i) {
      auto url = std::string{signer.base_url}
                 + output_url_path(signer.secret, r.id, static_cast<uint32_t>(i), exp);
      auto& o = r.outputs[i];
      outputs.push_back(json::object{{"url", url},
                                     {"content_type", o.content_type},
                                     {"bytes", o.bytes},
                                     {"width", o.width},
                                     {"height", o.height},
                                     {"sha256", o.sha256}});
      urls.emplace_back(std::move(url));
    }
  }
  json::object metadata;
  for (auto& [k, v] : r.metadata)
    metadata[k] = v;
  json::value failure = nullptr;
  if (r.failure)
    failure = json::object{{"code", r.failure->code}, {"message", r.failure->message}};

  json::object o;
  o["id"] = r.id;
  o["object"] = to_string(r.kind);
  o["status"] = to_string(r.status);
  o["prompt"] = r.prompt;
  o["negative_prompt"] = r.negative_prompt;
  o["width"] = r.width;
  o["height"] = r.height;
  if (r.kind == job_kind::video) {
    o["duration_seconds"] = r.duration_seconds;
    o["fps"] = r.fps;
  }
  o["num_outputs"] = r.num_outputs;
  o["seed"] = r.seed;
  o["steps"] = r.steps;
  o["loras"] = std::move(loras);
  o["lora_selection"] = to_string(r.selection);
  o["init_image"] = r.init_image ? json::value(*r.init_image) : json::value(nullptr);
  o["progress"] = json_number(r.progress);
  o["output_urls"] = std::move(urls);
  o["outputs"] = std::move(outputs);
  o["outputs_expire_at"] = r.status == job_status::succeeded ? optional_time(r.outputs_expire_at) : nullptr;
  o["cost"] = json::object{{"credits", r.credits}, {"status", to_string(r.cost_status)}};
  o["failure"] = std::move(failure);
  o["metadata"] = std::move(metadata);
  o["api_version"] = r.api_version;
  o["created_at"] = core::format_iso8601(r.created_at);
  o["started_at"] = optional_time(r.started_at);
  o["completed_at"] = optional_time(r.completed_at);
  return o;
}

} // namespace svc::schema
