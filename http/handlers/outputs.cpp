// GET/HEAD /v1/outputs/{id}/{index}?exp=&sig=: an output's bytes behind a
// signed URL, without an API key. The signature is checked before anything
// is looked up, so ids cannot be probed; past `exp` the answer is 410 (the
// expiry sweeper deletes the bytes at the same time). Single byte ranges are
// served (206), since video players seek with them.
#include <charconv>

#include "core/time_format.hpp"
#include "http/byte_range.hpp"
#include "http/handlers/handlers.hpp"
#include "http/query.hpp"
#include "http/respond.hpp"
#include "schema/output_url.hpp"

namespace svc::http {
namespace {

void reply_missing(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", "output"}, {"id", id.substr(0, 64)}}, "id"));
}

} // namespace

void get_output(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto& index_text = ctx->param("index");
  uint32_t index = 0;
  auto [end, ec] = std::from_chars(index_text.data(), index_text.data() + index_text.size(), index);
  // Only the canonical decimal that was signed: `00` or `+0` name nothing.
  if (ec != std::errc{} || end != index_text.data() + index_text.size() || index_text.size() > 2
      || (index_text.size() > 1 && index_text[0] == '0'))
    return reply_missing(ctx, id);
  auto exp = query_value(ctx->query, "exp").value_or("");
  auto sig = query_value(ctx->query, "sig").value_or("");
  auto now = core::to_unix_seconds(ctx->svc.clock->now());
  switch (schema::verify_output_url(ctx->svc.url_secret, id, index, exp, sig, now)) {
  case schema::output_url_verdict::invalid_signature:
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_signature));
  case schema::output_url_verdict::expired:
    return reply_error(ctx, schema::make_api_error(
                              schema::error_code::url_expired,
                              {{"expired_at", core::format_iso8601(core::from_unix_ms(std::stoll(exp) * 1000))}}));
  case schema::output_url_verdict::valid: break;
  }
  auto job = ctx->svc.tables().jobs.get(id);
  if (!job || job->status != schema::job_status::succeeded || index >= job->outputs.size())
    return reply_missing(ctx, id);
  auto& output = job->outputs[index];
  auto bytes = ctx->svc.runtime.blobs().get(schema::output_blob_key(*job, index));
  if (!bytes)
    return reply_missing(ctx, id);
  auto max_age = std::max<int64_t>(0, std::stoll(exp) - now);
  auto etag = "\"" + output.sha256 + "\"";
  header_list headers{{"ETag", etag},
                      {"Accept-Ranges", "bytes"},
                      {"Cache-Control", "private, max-age=" + std::to_string(max_age)},
                      {"Content-Disposition", "inline; filename=\"" + id + "." + std::to_string(index)
                                                + (job->kind == schema::job_kind::image ? ".png\"" : ".mp4\"")}};
  auto range = parse_range(ctx->header("Range"), bytes->size());
  // If-Range: a range of an ETag the client no longer has would splice two files.
  if (auto if_range = ctx->header("If-Range"); if_range && *if_range != etag)
    range = {};
  switch (range.what) {
  case range_request::kind::whole: return reply_body(ctx, 200, std::move(*bytes), output.content_type, std::move(headers));
  case range_request::kind::unsatisfiable:
    headers.emplace_back("Content-Range", "bytes */" + std::to_string(bytes->size()));
    return reply_error(ctx,
                       schema::make_api_error(schema::error_code::range_not_satisfiable,
                                              {{"range", std::string{ctx->header("Range")->substr(0, 64)}},
                                               {"bytes", std::to_string(bytes->size())}}),
                       std::move(headers));
  case range_request::kind::partial:
    headers.emplace_back("Content-Range", content_range(range.range, bytes->size()));
    return reply_body(ctx, 206, bytes->substr(range.range.first, range.range.length()), output.content_type,
                      std::move(headers));
  }
}

} // namespace svc::http
