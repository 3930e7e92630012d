#pragma once
// What the routes that take an uploaded image share (`POST /v1/files`,
// `POST /v1/images/edits`): opening a streamed multipart body within the
// upload slots, reading it into a form, and turning its image into a team
// file for the file writer, with the same limits and errors on every route.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "actors/payloads.hpp"
#include "http/form_reader.hpp"
#include "http/request_context.hpp"
#include "http/slot_gate.hpp"
#include "schema/file_record.hpp"

namespace svc::http {

/// An upload the route may read.
struct upload_opening {
  std::string boundary;              ///< of the multipart body
  slot_gate::slot slot;              ///< one of `--max-uploads`: held until the answer, while the bytes are in memory
  std::uint64_t declared_length = 0; ///< the body's Content-Length; 0 when absent (chunked)
};

/// Opens the body of an upload route whose parts `parts` names (for the
/// 415's message); nullopt after answering 415 (not `multipart/form-data`),
/// 400 (no valid boundary), 503 (every upload slot taken) or 429 (the team
/// holds its share of them).
std::optional<upload_opening> open_upload(const context_ptr& ctx, std::string_view parts);

/// Streams the body (up to 20 MiB) into `form`; `complete` runs once it
/// ended whole (or at once for an empty body), and every other end answers
/// its error: the form's refusal (400), 413, 408 or 400 for broken chunking.
void read_upload(const context_ptr& ctx, std::shared_ptr<form_reader> form, std::function<void()> complete);

/// Reads an upload route's body into a new `Form` (an `upload_form`, an
/// `edit_form`): opened as `open_upload` says, streamed as `read_upload`
/// says, and once whole handed to `complete(ctx, form.finish(), slot)`,
/// which keeps the slot for as long as it keeps the bytes.
template <class Form, class Complete>
void read_form(const context_ptr& ctx, std::string_view parts, Complete complete) {
  auto opening = open_upload(ctx, parts);
  if (!opening)
    return;
  auto form = std::make_shared<Form>(opening->boundary, opening->declared_length);
  read_upload(ctx, form, [ctx, form, slot = opening->slot, complete] { complete(ctx, form->finish(), slot); });
}

/// The uploaded `bytes` as a new file of the caller's team with `purpose`,
/// ready for the file writer; nullopt after answering 415 (not a PNG, JPEG or
/// WebP image) or 400 `invalid_parameter` naming `param` (a canvas over the
/// decoder's limits, so nothing stored is undecodable).
std::optional<actors::file_upload> image_file_upload(const context_ptr& ctx, std::string bytes,
                                                     schema::file_purpose purpose, const std::string& param);

} // namespace svc::http
