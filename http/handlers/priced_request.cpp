#include "http/handlers/priced_request.hpp"

#include "core/duration.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"

namespace svc::http {
namespace {

template <class Request, class Price>
std::optional<priced_request<Request>> price_valid(const context_ptr& ctx, valid_body<Request> valid, Price price,
                                                   const refusal_answer& refuse) {
  const auto& models = ctx->svc.runtime.models();
  auto model = schema::resolve_model(models, valid.request);
  if (!model) {
    refuse(model.error());
    return std::nullopt;
  }
  auto catalogue = ctx->svc.loras.get(ctx->svc.env, ctx->svc.tables());
  if (catalogue.failed()) {
    reply_storage_failure(ctx, catalogue.why());
    return std::nullopt;
  }
  auto loras = schema::resolve_loras(valid.request, **catalogue, [&](const std::string& slug) {
    return models.lora_fits(slug, *model.value());
  });
  if (!loras) {
    refuse(loras.error());
    return std::nullopt;
  }
  if (auto& id = valid.request.init_image) {
    auto file = find_team_file(ctx, *id);
    if (file.failed()) {
      reply_storage_failure(ctx, file.why());
      return std::nullopt;
    }
    std::string why;
    if (file.absent())
      why = "no live file of this team has this id (files expire " + core::format_duration(ctx->svc.cfg.file_ttl)
            + " after upload)";
    else if (file->purpose != schema::file_purpose::init_image)
      why = "the file was uploaded with purpose " + std::string{to_string(file->purpose)} + ", not init_image";
    if (!why.empty()) {
      refuse(schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", why}}, "init_image"));
      return std::nullopt;
    }
  }
  priced_request<Request> out;
  out.body = std::move(valid.json);
  out.request = std::move(valid.request);
  out.model = model.value();
  out.loras = std::move(loras.value());
  out.price = price(out.request, out.loras.loras.size(), schema::model_price_table(*out.model, ctx->version));
  return out;
}

template <class Request, class Validate, class Price>
std::optional<priced_request<Request>> read_priced(const context_ptr& ctx, Validate validate, Price price) {
  auto valid = read_valid_body(ctx, validate);
  if (!valid)
    return std::nullopt;
  return price_valid(ctx, std::move(*valid), price, [ctx](const schema::api_error& e) { reply_error(ctx, e); });
}

} // namespace

std::optional<priced_image> read_priced_image(const context_ptr& ctx) {
  return read_priced<schema::image_request>(ctx, schema::validate_image_request, schema::price_image);
}

std::optional<priced_video> read_priced_video(const context_ptr& ctx) {
  return read_priced<schema::video_request>(ctx, schema::validate_video_request, schema::price_video);
}

std::optional<priced_image> price_image_body(const context_ptr& ctx, boost::json::object body,
                                             const refusal_answer& refuse) {
  auto request = schema::validate_image_request(body);
  if (!request) {
    refuse(request.error());
    return std::nullopt;
  }
  return price_valid(ctx, valid_body<schema::image_request>{std::move(body), std::move(request.value())},
                     schema::price_image, refuse);
}

} // namespace svc::http
