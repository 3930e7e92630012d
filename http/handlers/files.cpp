// POST /v1/files (a streamed multipart upload), GET /v1/files/{id} and
// GET /v1/files. The body is parsed as it arrives and only the file's bytes
// are kept; the file writer stores them off the asio threads.
#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/image_upload.hpp"
#include "http/list_params.hpp"
#include "http/owned_read.hpp"
#include "http/upload_form.hpp"
#include "schema/file_view.hpp"

namespace svc::http {
namespace {

using schema::error_code;
using schema::make_api_error;

void reply_file_not_found(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, make_api_error(error_code::resource_not_found, {{"kind", "file"}, {"id", id.substr(0, 64)}}, "id"));
}

// The form is whole: check the image and hand it to the file writer.
void store_upload(const context_ptr& ctx, schema::checked<upload> form, const slot_gate::slot& slot) {
  if (!form)
    return reply_error(ctx, form.error());
  auto up = image_file_upload(ctx, std::move(form.value().bytes), form.value().purpose, "file");
  if (!up)
    return;
  // The slot is held until the answer: the bytes stay in memory until then.
  ask<schema::file_record>(
    ctx, ctx->svc.actors().files,
    [ctx, slot](schema::file_record& stored) {
      reply_json(ctx, 201, schema::file_view(stored), {{"Location", ctx->svc.base_url + "/v1/files/" + stored.id}});
    },
    actors::create_atom::value, std::move(*up));
}

} // namespace

persistence::read_result<schema::file_record> find_team_file(const context_ptr& ctx, const std::string& id) {
  auto now = ctx->svc.clock->now();
  return read_owned(ctx, ctx->svc.tables().files, id, "file").keep_if([&](const schema::file_record& f) {
    return !schema::is_expired(f, now);
  });
}

void create_file(const context_ptr& ctx) { read_form<upload_form>(ctx, "file and purpose", store_upload); }

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
