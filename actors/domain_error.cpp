#include "actors/messages.hpp"

#include <cstdlib>

#include "core/log.hpp"

namespace svc::actors {
namespace {

const caf::atom_value domain_category = caf::atom("svc");

} // namespace

caf::error make_domain_error(schema::error_code code, std::string param, schema::message_args args) {
  return caf::error{static_cast<uint8_t>(code), domain_category, caf::make_message(std::move(param), std::move(args))};
}

caf::error invalid_parameter(std::string param, std::string detail) {
  return make_domain_error(schema::error_code::invalid_parameter, std::move(param), {{"detail", std::move(detail)}});
}

caf::error team_not_found(const std::string& id) {
  return make_domain_error(schema::error_code::resource_not_found, "team", {{"kind", "team"}, {"id", id}});
}

caf::error storage_failure(std::string_view component, std::string_view why) {
  core::log_error(component, "store read failed: " + std::string{why});
  return make_domain_error(schema::error_code::storage_unavailable);
}

bool is_domain_error(const caf::error& err, schema::error_code code) {
  return err.category() == domain_category && err.code() == static_cast<uint8_t>(code);
}

schema::api_error to_api_error(const caf::error& err) {
  using schema::error_code;
  if (err.category() == domain_category && err.code() < schema::error_catalogue().size()) {
    auto code = static_cast<error_code>(err.code());
    std::string param;
    schema::message_args args;
    if (err.context().match_elements<std::string, schema::message_args>()) {
      param = err.context().get_as<std::string>(0);
      args = err.context().get_as<schema::message_args>(1);
    }
    auto api = schema::make_api_error(code, args, std::move(param));
    // A bucket an actor charged (not the request's own) names its wait here.
    if (auto seconds = args.find("seconds"); code == error_code::too_many_requests && seconds != args.end())
      api.retry_after = std::strtoll(seconds->second.c_str(), nullptr, 10);
    return api;
  }
  if (err == caf::sec::request_timeout || err == caf::sec::request_receiver_down)
    return schema::make_api_error(error_code::unavailable);
  return schema::make_api_error(error_code::internal_error, {{"request_id", "see Svc-Request-Id"}});
}

void add_domain_error_category(caf::actor_system_config& cfg) {
  cfg.add_error_category(domain_category, [](uint8_t code, caf::atom_value, const caf::message&) -> std::string {
    if (code < schema::error_catalogue().size())
      return "svc_error(" + std::string{schema::to_string(static_cast<schema::error_code>(code))} + ")";
    return "svc_error(" + std::to_string(code) + ")";
  });
}

} // namespace svc::actors
