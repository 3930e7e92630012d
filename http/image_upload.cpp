#include "http/image_upload.hpp"

#include <charconv>

#include "core/duration.hpp"
#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/respond.hpp"
#include "providers/image_decoder.hpp"
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

void on_upload_end(const context_ptr& ctx, const form_reader& form, const std::function<void()>& complete,
                   body_end how) {
  switch (how) {
  case body_end::complete: return complete();
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

std::optional<upload_opening> open_upload(const context_ptr& ctx, std::string_view parts) {
  upload_opening out;
  auto type = ctx->req.find(beast::http::field::content_type);
  switch (read_form_type(type == ctx->req.end() ? std::string_view{} : std::string_view{type->value()}, out.boundary)) {
  case form_type::not_form_data:
    reply_error(ctx, make_api_error(error_code::unsupported_media_type,
                                    {{"detail", "Send the body as multipart/form-data with the parts "
                                                  + std::string{parts} + "."}}));
    return std::nullopt;
  case form_type::bad_boundary:
    reply_error(ctx, make_api_error(error_code::invalid_body,
                                    {{"detail", "the multipart/form-data boundary is missing or invalid"}}));
    return std::nullopt;
  case form_type::form_data: break;
  }
  slot_gate::refusal why{};
  out.slot = ctx->svc.uploads.try_enter(ctx->team->id, ctx->svc.cfg.max_uploads, why);
  if (why == slot_gate::refusal::server_full) {
    reply_error(ctx, make_api_error(error_code::unavailable), {{"Retry-After", "1"}});
    return std::nullopt;
  }
  if (why == slot_gate::refusal::share_used) {
    reply_error(ctx,
                make_api_error(error_code::too_many_uploads,
                               {{"count", std::to_string(ctx->svc.uploads.share(ctx->svc.cfg.max_uploads))}}),
                {{"Retry-After", "1"}});
    return std::nullopt;
  }
  out.declared_length = declared_length(ctx);
  return out;
}

void read_upload(const context_ptr& ctx, std::shared_ptr<form_reader> form, std::function<void()> complete) {
  if (!ctx->body) // an empty body: the session had nothing to stream
    return complete();
  ctx->body->read(
    schema::max_file_body_bytes, [form](std::string_view bytes) { return form->feed(bytes); },
    [ctx, form, complete = std::move(complete)](body_end how) { on_upload_end(ctx, *form, complete, how); });
}

std::optional<actors::file_upload> image_file_upload(const context_ptr& ctx, std::string bytes,
                                                     schema::file_purpose purpose, const std::string& param) {
  auto image = schema::sniff_image(bytes);
  if (!image) {
    reply_error(ctx, make_api_error(error_code::unsupported_media_type,
                                    {{"detail", "The part '" + param + "' is not a PNG, JPEG or WebP image."}}));
    return std::nullopt;
  }
  // A small file can declare a huge canvas (decompression bomb): refuse by the
  // declared size here, with the decoder's limits, so nothing stored is undecodable.
  providers::decode_limits decoder;
  decoder.max_pixels = ctx->svc.cfg.max_upload_pixels;
  if (image->width > decoder.max_side || image->height > decoder.max_side
      || int64_t{image->width} * image->height > decoder.max_pixels) {
    reply_error(ctx, make_api_error(error_code::invalid_parameter,
                                    {{"detail", "the image is " + std::to_string(image->width) + "x"
                                                  + std::to_string(image->height) + "; at most "
                                                  + std::to_string(decoder.max_pixels) + " pixels and "
                                                  + std::to_string(decoder.max_side) + " a side"}},
                                    param));
    return std::nullopt;
  }
  actors::file_upload up;
  auto& f = up.record;
  f.id = core::make_id("file", core::shard_of_team(ctx->team->id));
  f.team_id = ctx->team->id;
  f.purpose = purpose;
  f.content_type = std::string{image->content_type};
  f.width = image->width;
  f.height = image->height;
  f.created_at = ctx->svc.clock->now();
  f.expires_at = f.created_at + ctx->svc.cfg.file_ttl;
  up.bytes = std::make_shared<const std::string>(std::move(bytes));
  return up;
}

} // namespace svc::http
