// POST /v1/files (a streamed multipart upload), GET /v1/files/{id} and
// GET /v1/files. The body is parsed as it arrives and only the file's bytes
// are kept; the file writer stores them off the asio threads.
#include <charconv>

#include <boost/json.hpp>

#include "core/duration.hpp"
#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/list_params.hpp"
#include "http/owned_read.hpp"
#include "http/upload_form.hpp"
#include "providers/image_decoder.hpp"
#include "schema/file_view.hpp"
#include "schema/image_sniff.hpp"

namespace svc::http {
namespace {

using schema::error_code;
using schema::make_api_error;

// The Content-Length of the request, 0 when absent (a chunked body) or unreadable.
uint64_t declared_length(const context_ptr& ctx) {
  auto it = ctx->req.find(beast::http::field::content_length);
  if (it == ctx->req.end())
    return 0;
  std::string_view text = it->value();
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  return ec == std::errc{} && end == text.data() + text.size() ? n : 0;
}

void reply_file_not_found(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, make_api_error(error_code::resource_not_found, {{"kind", "file"}, {"id", id.substr(0, 64)}}, "id"));
}

// The form is whole: sniff the bytes and hand them to the file writer.
void store_upload(const context_ptr& ctx, schema::checked<upload> form, const slot_gate::slot& slot) {
  if (!form)
    return reply_error(ctx, form.error());
  auto image = schema::sniff_image(form.value().bytes);
  if (!image)
    return reply_error(ctx, make_api_error(error_code::unsupported_media_type,
                                           {{"detail", "The file is not a PNG, JPEG or WebP image."}}));
  // A small file can declare a huge canvas (decompression bomb): refuse by the
  // declared size here, with the decoder's limits, so nothing stored is undecodable.
  providers::decode_limits decoder;
  decoder.max_pixels = ctx->svc.cfg.max_upload_pixels;
  if (image->width > decoder.max_side || image->height > decoder.max_side
      || int64_t{image->width} * image->height > decoder.max_pixels)
    return reply_error(ctx, make_api_error(error_code::invalid_parameter,
                                           {{"detail", "the image is " + std::to_string(image->width) + "x"
                                                         + std::to_string(image->height) + "; at most "
                                                         + std::to_string(decoder.max_pixels) + " pixels and "
                                                         + std::to_string(decoder.max_side) + " a side"}},
                                           "file"));
  actors::file_upload up;
  auto& f = up.record;
  f.id = core::make_id("file", core::shard_of_team(ctx->team->id));
  f.team_id = ctx->team->id;
  f.purpose = form.value().purpose;
  f.content_type = std::string{image->content_type};
  f.width = image->width;
  f.height = image->height;
  f.created_at = ctx->svc.clock->now();
  f.expires_at = f.created_at + ctx->svc.cfg.file_ttl;
  up.bytes = std::make_shared<const std::string>(std::move(form.value().bytes));
  // The slot is held until the answer: the bytes stay in memory until then.
  ask<schema::file_record>(
    ctx, ctx->svc.actors().files,
    [ctx, slot](schema::file_record& stored) {
      reply_json(ctx, 201, schema::file_view(stored), {{"Location", ctx->svc.base_url + "/v1/files/" + stored.id}});
    },
    actors::create_atom::value, std::move(up));
}

void on_body_end(const context_ptr& ctx, upload_form& form, const slot_gate::slot& slot, body_end how) {
  switch (how) {
  case body_end::complete: return store_upload(ctx, form.finish(), slot);
  case body_end::refused: return reply_error(ctx, form.error());
  case body_end::too_large:
    return reply_error(ctx, make_api_error(error_code::body_too_large,
                                           {{"limit", std::to_string(schema::max_file_body_bytes)}}));
  case body_end::malformed:
    return reply_error(ctx, make_api_error(error_code::malformed_request, {{"detail", "bad chunked framing"}}));
  case body_end::too_slow: {
    auto& cfg = ctx->svc.cfg;
    return reply_error(ctx, make_api_error(error_code::upload_too_slow,
                                           {{"bytes", std::to_string(cfg.upload_min_bytes)},
                                            {"window", core::format_duration(cfg.upload_rate_window)},
                                            {"deadline", core::format_duration(cfg.upload_deadline)}}));
  }
  case body_end::aborted: // the client went away: the answer reaches no one, but counts
    return reply_error(ctx, make_api_error(error_code::invalid_body, {{"detail", "the body ended before it was complete"}}));
  }
}

} // namespace

persistence::read_result<schema::file_record> find_team_file(const context_ptr& ctx, const std::string& id) {
  auto now = ctx->svc.clock->now();
  return read_owned(ctx, ctx->svc.tables().files, id, "file").keep_if([&](const schema::file_record& f) {
    return !schema::is_expired(f, now);
  });
}

void create_file(const context_ptr& ctx) {
  std::string boundary;
  auto type = ctx->req.find(beast::http::field::content_type);
  switch (read_form_type(type == ctx->req.end() ? std::string_view{} : std::string_view{type->value()}, boundary)) {
  case form_type::not_form_data:
    return reply_error(ctx, make_api_error(error_code::unsupported_media_type,
                                           {{"detail", "Send the body as multipart/form-data with the parts file and purpose."}}));
  case form_type::bad_boundary:
    return reply_error(ctx, make_api_error(error_code::invalid_body,
                                           {{"detail", "the multipart/form-data boundary is missing or invalid"}}));
  case form_type::form_data: break;
  }
  slot_gate::refusal why{};
  auto slot = ctx->svc.uploads.try_enter(ctx->team->id, ctx->svc.cfg.max_uploads, why);
  if (why == slot_gate::refusal::server_full)
    return reply_error(ctx, make_api_error(error_code::unavailable), {{"Retry-After", "1"}});
  if (why == slot_gate::refusal::share_used)
    return reply_error(ctx,
                       make_api_error(error_code::too_many_uploads,
                                      {{"count", std::to_string(ctx->svc.uploads.share(ctx->svc.cfg.max_uploads))}}),
                       {{"Retry-After", "1"}});
  auto form = std::make_shared<upload_form>(boundary, declared_length(ctx));
  if (!ctx->body) // an empty body: the session had nothing to stream
    return store_upload(ctx, form->finish(), slot);
  ctx->body->read(
    schema::max_file_body_bytes, [form](std::string_view bytes) { return form->feed(bytes); },
    [ctx, form, slot](body_end how) { on_body_end(ctx, *form, slot, how); });
}

void get_file(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto f = find_team_file(ctx, id);
  if (f.failed())
    return reply_storage_failure(ctx, f.why());
  if (f.has_value())
    return reply_json(ctx, 200, schema::file_view(*f));
  reply_file_not_found(ctx, id);
}

void list_files(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "file");
  if (!params)
    return;
  auto now = ctx->svc.clock->now();
  auto& tables = ctx->svc.tables();
  reply_team_list(ctx, tables.files_by_team, "file", *params, [&](std::string_view id) {
    return tables.files.get(id)
      .keep_if([&](const schema::file_record& f) { return !schema::is_expired(f, now); })
      .map([](schema::file_record&& f) { return schema::file_view(f); });
  });
}

} // namespace svc::http
