#include "providers/request_fields.hpp"

#include <boost/json.hpp>

namespace svc::providers {

boost::json::value request_field(std::string_view field, const render_request& r) {
  namespace json = boost::json;
  if (field == "prompt") return json::string{r.prompt};
  if (field == "negative_prompt") return json::string{r.negative_prompt};
  if (field == "seed") return static_cast<std::uint64_t>(r.seed);
  if (field == "width") return r.width;
  if (field == "height") return r.height;
  if (field == "steps") return r.steps;
  if (field == "frames") return r.is_video() ? json::value(r.duration_seconds * r.fps) : json::value{};
  if (field == "fps") return r.is_video() ? json::value(r.fps) : json::value{};
  return {};
}

} // namespace svc::providers
