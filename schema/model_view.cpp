#include "schema/model_view.hpp"

#include <boost/json.hpp>

#include "schema/views.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

json::object size_view(frame_size s) { return {{"width", s.width}, {"height", s.height}}; }

json::array price_items(const model_entry& m, std::string_view api_version) {
  json::array items;
  for (auto& i : model_price_table(m, api_version).items)
    items.push_back({{"item", i.item}, {"unit", i.unit}, {"credits", i.credits}});
  return items;
}

json::value model_view(const model_catalogue& c, const model_entry& m, std::string_view api_version) {
  json::object o{{"id", m.id},
                 {"object", "model"},
                 {"kind", to_string(m.kind)},
                 {"description", m.description},
                 {"default", c.default_for(m.kind) == &m},
                 {"default_size", size_view(m.default_size)},
                 {"max_size", size_view(m.max_size)}};
  if (m.kind == model_kind::image) {
    o["max_steps"] = m.max_steps;
  } else {
    o["duration_seconds"] = {{"default", m.default_duration}, {"max", m.max_duration}};
    o["fps"] = {{"default", m.default_fps}, {"min", m.min_fps}, {"max", m.max_fps}};
  }
  json::array loras;
  for (auto& l : c.placed_loras())
    if (c.lora_fits(l.slug, m))
      loras.push_back(json::string{l.slug});
  o["loras"] = c.takes_any_slug(m) ? json::value("any") : json::value(std::move(loras));
  o["prices"] = price_items(m, api_version);
  return o;
}

} // namespace

json::value model_list_view(const model_catalogue& catalogue, std::string_view api_version) {
  json::array data;
  for (auto& m : catalogue.models())
    data.push_back(model_view(catalogue, m, api_version));
  return list_view(std::move(data), false, {});
}

json::array model_prices_view(const model_catalogue& catalogue, std::string_view api_version) {
  json::array out;
  for (auto& m : catalogue.models())
    if (!m.prices.empty())
      out.push_back({{"model", m.id}, {"kind", to_string(m.kind)}, {"items", price_items(m, api_version)}});
  return out;
}

} // namespace svc::schema
