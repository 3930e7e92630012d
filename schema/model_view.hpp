#pragma once
// The wire form of the model catalogue: `GET /v1/models` and the `models`
// of `GET /v1/pricing`, both priced at the request's API version.

#include <string_view>

#include <boost/json/value.hpp>

#include "schema/model_catalogue.hpp"

namespace svc::schema {

/// `{object: "list", data: [model...], has_more: false, next_cursor: null}`.
boost::json::value model_list_view(const model_catalogue& catalogue, std::string_view api_version);

/// `[{model, kind, items: [{item, unit, credits}]}]`, one per model that has prices of its own.
boost::json::array model_prices_view(const model_catalogue& catalogue, std::string_view api_version);

} // namespace svc::schema
