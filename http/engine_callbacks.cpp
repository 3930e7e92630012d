// The engine-callback listener's routes: Cog's webhooks about the
// predictions svcd created. A call is taken only with the token svcd put in
// that prediction's webhook URL, and only while a render waits for it;
// anything else is a 404 that tells nothing about which ids exist.
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "http/pipeline.hpp"
#include "http/respond.hpp"

namespace svc::http {
namespace {

void reply_no_prediction(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", "prediction"}, {"id", id.substr(0, 64)}}, "id"));
}

void receive_cog_webhook(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto token = query_value(ctx->query, "token");
  auto* inbox = ctx->svc.engine_callbacks;
  if (!inbox || !token || !core::constant_time_equal(*token, core::callback_token(ctx->svc.url_secret, id)))
    return reply_no_prediction(ctx, id);
  if (!inbox->deliver(id, std::string{ctx->req.body()}))
    return reply_no_prediction(ctx, id);
  reply_json(ctx, 200, boost::json::object{});
}

} // namespace

std::vector<route> engine_callback_routes() {
  return {
    {beast::http::verb::post, "/cog/predictions/{id}", schema::scope::none, schema::bucket_class::anonymous,
     receive_cog_webhook, "a Cog prediction's webhook (the token of its URL)"},
  };
}

} // namespace svc::http
