// GET/HEAD /v1/outputs/{id}/{index}?exp=&sig=: an output's bytes behind a
// signed URL, without an API key. The signature is checked before anything
// is looked up, so ids cannot be probed; past `exp` the answer is 410 (the
// expiry sweeper deletes the bytes at the same time). Single byte ranges are
// served (206), since video players seek with them. The bytes are streamed
// from the blob file (opened and read on the blob-read pool), only the range
// asked for, and none for HEAD: a download holds one piece in memory.
#include <charconv>

#include "core/time_format.hpp"
#include "http/blob_body.hpp"
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

// What the answer says about the output, besides its bytes.
struct output_meta {
  std::string id;
  std::string etag;
  std::string content_type;
  header_list headers;
};

void send_output(const context_ptr& ctx, const std::shared_ptr<const persistence::blob_file>& file,
                 output_meta meta) {
  if (!file)
    return reply_missing(ctx, meta.id);
  auto size = file->size();
  auto& pool = ctx->svc.blob_reads;
  auto range = parse_range(ctx->header("Range"), size);
  // If-Range: a range of an ETag the client no longer has would splice two files.
  if (auto if_range = ctx->header("If-Range"); if_range && *if_range != meta.etag)
    range = {};
  switch (range.what) {
  case range_request::kind::whole:
    return reply_stream(ctx, 200, std::make_shared<blob_body>(file, 0, size, pool), meta.content_type,
                        std::move(meta.headers));
  case range_request::kind::unsatisfiable:
    meta.headers.emplace_back("Content-Range", "bytes */" + std::to_string(size));
    return reply_error(ctx,
                       schema::make_api_error(schema::error_code::range_not_satisfiable,
                                              {{"range", std::string{ctx->header("Range")->substr(0, 64)}},
                                               {"bytes", std::to_string(size)}}),
                       std::move(meta.headers));
  case range_request::kind::partial:
    meta.headers.emplace_back("Content-Range", content_range(range.range, size));
    return reply_stream(ctx, 206, std::make_shared<blob_body>(file, range.range.first, range.range.length(), pool),
                        meta.content_type, std::move(meta.headers));
  }
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
  if (job.failed())
    return reply_storage_failure(ctx, job.why());
  if (job.absent() || job->status != schema::job_status::succeeded || index >= job->outputs.size())
    return reply_missing(ctx, id);
  auto& output = job->outputs[index];
  auto max_age = std::max<int64_t>(0, std::stoll(exp) - now);
  output_meta meta{id, "\"" + output.sha256 + "\"", output.content_type, {}};
  // nosniff: a browser renders the bytes only as their Content-Type, never
  // as a page it guessed (an engine's output is not trusted to be an image).
  meta.headers = {{"ETag", meta.etag},
                  {"X-Content-Type-Options", "nosniff"},
                  {"Accept-Ranges", "bytes"},
                  {"Cache-Control", "private, max-age=" + std::to_string(max_age)},
                  {"Content-Disposition", "inline; filename=\"" + id + "." + std::to_string(index)
                                            + (job->kind == schema::job_kind::image ? ".png\"" : ".mp4\"")}};
  // Opening touches the disk: on the blob-read pool, then back to asio to answer.
  net::post(ctx->svc.blob_reads, [ctx, key = schema::output_blob_key(*job, index), meta = std::move(meta)]() mutable {
    std::shared_ptr<const persistence::blob_file> file = ctx->svc.runtime.blobs().open(key);
    net::post(ctx->svc.io, [ctx, file = std::move(file), meta = std::move(meta)]() mutable {
      send_output(ctx, file, std::move(meta));
    });
  });
}

} // namespace svc::http
