#include "schema/job_view.hpp"

#include <vector>

#include "core/time_format.hpp"
#include "schema/output_url.hpp"
#include "schema/record_view.hpp"

namespace svc::schema {
namespace {

// A job shows its outputs and their expiry only once it succeeded.
bool shows_outputs(const job_record& r) { return r.status == job_status::succeeded && r.outputs_expire_at; }

// Writes the members only the view can give (job_record.hpp marks them
// SVC_VIEW_OWN): output URLs are signed here, from the stored expiry.
struct signed_outputs {
  const output_signer& signer;

  template <class Sink>
  void write(Sink& w, const job_record& r, member_tag<&job_record::outputs>) const {
    // Signed once: each URL is shown in `output_urls` and again in `outputs`.
    auto urls = output_urls(r, signer);
    w.key("output_urls").begin_array();
    for (auto& url : urls)
      w.string(url);
    w.end_array();
    w.key("outputs").begin_array();
    for (std::size_t i = 0; i < urls.size(); ++i) {
      w.begin_object();
      w.key("url").string(urls[i]);
      write_view_members(w, r.outputs[i]);
      w.end_object();
    }
    w.end_array();
  }

  template <class Sink>
  void write(Sink& w, const job_record& r, member_tag<&job_record::outputs_expire_at>) const {
    w.key("outputs_expire_at");
    if (shows_outputs(r))
      w.string(core::format_iso8601(*r.outputs_expire_at));
    else
      w.null();
  }
};

} // namespace

std::vector<std::string> output_urls(const job_record& r, const output_signer& signer) {
  std::vector<std::string> urls;
  if (!shows_outputs(r))
    return urls;
  auto exp = core::to_unix_ms(*r.outputs_expire_at) / 1000;
  urls.reserve(r.outputs.size());
  for (std::size_t i = 0; i < r.outputs.size(); ++i)
    urls.push_back(std::string{signer.base_url} + output_url_path(signer.secret, r.id, static_cast<uint32_t>(i), exp));
  return urls;
}

boost::json::value job_view(const job_record& r, const output_signer& signer) {
  return view_tree(r, signed_outputs{signer});
}

void write_job_view(std::string& out, const job_record& r, const output_signer& signer) {
  out.reserve(out.size() + 1024); // a typical view: one allocation
  json_text text{out};
  write_view(text, r, signed_outputs{signer});
}

} // namespace svc::schema
