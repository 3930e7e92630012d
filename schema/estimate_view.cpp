#include "schema/estimate_view.hpp"

#include <boost/json.hpp>

namespace svc::schema {
namespace json = boost::json;

json::array breakdown_view(const price_quote& price) {
  json::array lines;
  for (auto& l : price.breakdown)
    lines.push_back({{"item", l.item}, {"credits", l.credits}});
  return lines;
}

json::value estimate_view(const price_quote& price, std::string_view api_version, int64_t available_credits) {
  return {{"object", "estimate"},
          {"credits", price.credits},
          {"api_version", api_version},
          {"breakdown", breakdown_view(price)},
          {"available_credits", available_credits},
          {"sufficient", available_credits >= price.credits}};
}

} // namespace svc::schema
