#pragma once
// The answer of `POST /v1/images/estimate`: the price a create would hold,
// and whether the team could pay it now.

#include <cstdint>
#include <string_view>

#include <boost/json/value.hpp>

#include "schema/pricing.hpp"

namespace svc::schema {

/// `{object: "estimate", credits, api_version, breakdown: [{item, credits}],
/// available_credits, sufficient}`; `sufficient` is `available_credits >= credits`.
boost::json::value estimate_view(const price_quote& price, std::string_view api_version, int64_t available_credits);

/// `[{item, credits}]`, the breakdown as the estimate shows it.
boost::json::array breakdown_view(const price_quote& price);

} // namespace svc::schema
