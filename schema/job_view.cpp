#include "schema/job_view.hpp"

#include <vector>

#include "core/time_format.hpp"
#include "schema/json_sink.hpp"
#include "schema/output_url.hpp"

namespace svc::schema {
namespace {

template <class Sink>
void optional_time(Sink& w, const std::optional<core::time_point>& t) {
  if (t)
    w.string(core::format_iso8601(*t));
  else
    w.null();
}

// The one description of the view, for both sinks (json_sink.hpp).
template <class Sink>
void write_job(Sink& w, const job_record& r, const output_signer& signer) {
  // Signed once: each URL is shown in `output_urls` and again in `outputs`.
  std::vector<std::string> urls;
  if (r.status == job_status::succeeded && r.outputs_expire_at) {
    auto exp = core::to_unix_ms(*r.outputs_expire_at) / 1000;
    urls.reserve(r.outputs.size());
    for (std::size_t i = 0; i < r.outputs.size(); ++i)
      urls.push_back(std::string{signer.base_url}
                     + output_url_path(signer.secret, r.id, static_cast<uint32_t>(i), exp));
  }
  w.begin_object();
  w.key("id").string(r.id);
  w.key("object").string(to_string(r.kind));
  w.key("status").string(to_string(r.status));
  w.key("prompt").string(r.prompt);
  w.key("negative_prompt").string(r.negative_prompt);
  w.key("width").integer(r.width);
  w.key("height").integer(r.height);
  if (r.kind == job_kind::video) {
    w.key("duration_seconds").integer(r.duration_seconds);
    w.key("fps").integer(r.fps);
  }
  w.key("num_outputs").integer(r.num_outputs);
  w.key("seed").unsigned_integer(r.seed);
  w.key("steps").integer(r.steps);
  w.key("loras").begin_array();
  for (auto& l : r.loras) {
    w.begin_object();
    w.key("lora").string(l.lora_id);
    w.key("slug").string(l.slug);
    w.key("weight").number(l.weight);
    w.end_object();
  }
  w.end_array();
  w.key("lora_selection").string(to_string(r.selection));
  w.key("init_image");
  if (r.init_image)
    w.string(*r.init_image);
  else
    w.null();
  w.key("progress").number(r.progress);
  w.key("output_urls").begin_array();
  for (auto& url : urls)
    w.string(url);
  w.end_array();
  w.key("outputs").begin_array();
  for (std::size_t i = 0; i < urls.size(); ++i) {
    auto& o = r.outputs[i];
    w.begin_object();
    w.key("url").string(urls[i]);
    w.key("content_type").string(o.content_type);
    w.key("bytes").unsigned_integer(o.bytes);
    w.key("width").integer(o.width);
    w.key("height").integer(o.height);
    w.key("sha256").string(o.sha256);
    w.end_object();
  }
  w.end_array();
  w.key("outputs_expire_at");
  optional_time(w, r.status == job_status::succeeded ? r.outputs_expire_at : std::nullopt);
  w.key("cost").begin_object();
  w.key("credits").integer(r.credits);
  w.key("status").string(to_string(r.cost_status));
  w.end_object();
  w.key("failure");
  if (r.failure) {
    w.begin_object();
    w.key("code").string(r.failure->code);
    w.key("message").string(r.failure->message);
    w.end_object();
  } else {
    w.null();
  }
  w.key("metadata").begin_object();
  for (auto& [k, v] : r.metadata)
    w.key(k).string(v);
  w.end_object();
  w.key("api_version").string(r.api_version);
  w.key("created_at").string(core::format_iso8601(r.created_at));
  w.key("started_at");
  optional_time(w, r.started_at);
  w.key("completed_at");
  optional_time(w, r.completed_at);
  w.end_object();
}

} // namespace

boost::json::value job_view(const job_record& r, const output_signer& signer) {
  json_tree tree;
  write_job(tree, r, signer);
  return tree.release();
}

void write_job_view(std::string& out, const job_record& r, const output_signer& signer) {
  out.reserve(out.size() + 1024); // a typical view: one allocation
  json_text text{out};
  write_job(text, r, signer);
}

} // namespace svc::schema
