#include "bench/load/webhook_endpoints.hpp"

#include <boost/json.hpp>

#include "bench/load/format.hpp"
#include "bench/load/json_member.hpp"
#include "bench/load/requests.hpp"

namespace svc::bench {

std::string register_endpoints(blocking_client& api, const target& server, const std::vector<std::string>& keys,
                               std::size_t per_team, const std::string& subscribe,
                               const receiver::https_receiver& receiver, delivery_checker& checker) {
  namespace json = boost::json;
  std::size_t index = 0;
  for (const auto& key : keys)
    for (std::size_t j = 0; j < per_team; ++j, ++index) {
      const bool star = subscribe == "all" || (subscribe == "mixed" && index % 2 == 0);
      const json::object body{{"url", receiver.url("/hooks/" + std::to_string(index))},
                              {"events", json::array{star ? "*" : "image.cancelled"}}};
      // The default bucket is 10 a minute: call_retrying honours Retry-After.
      auto x = api.call_retrying(post_json_request("/v1/webhook_endpoints", server, key, body));
      const auto status = x.error ? 0U : x.response.result_int();
      if (status != 201)
        return format("POST /v1/webhook_endpoints answered %u: %s", status,
                      x.error ? x.error.message().c_str() : x.response.body().substr(0, 300).c_str());
      auto secret = json_string_member(x.response.body(), "secret").value_or("");
      if (secret.rfind("whsec_", 0) != 0)
        return "POST /v1/webhook_endpoints answered 201 without a whsec_ secret";
      checker.set_secret(index, std::move(secret));
    }
  return {};
}

} // namespace svc::bench
