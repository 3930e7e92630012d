#include "schema/views.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "core/time_format.hpp"

namespace svc::schema {
namespace json = boost::json;
json::value json_number(double d) {
  // The range test comes first: converting a double outside int64's range is undefined.
  if (d < 9.0e15 && d > -9.0e15 && d == std::trunc(d))
    return json::value(static_cast<int64_t>(d));
  return json::value(d);
}

json::value team_view(const team_record& t) {
  json::object overrides;
  for (auto& [name, l] : t.rate_limit_overrides)
    overrides[name] = {{"capacity", json_number(l.capacity)}, {"per_minute", json_number(l.per_minute)}};
  return {{"id", t.id},
          {"object", "team"},
          {"name", t.name},
          {"owner_email", t.owner_email},
          {"default_api_version", t.default_api_version},
          {"balance_low_threshold", t.balance_low_threshold},
          {"rate_limit_overrides", std::move(overrides)},
          {"created_at", core::format_iso8601(t.created_at)}};
}

json::value balance_view(const balance_record& b, int64_t balance_low_threshold) {
  return {{"object", "balance"},
          {"available", b.available},
          {"held", b.held},
          {"balance_low_threshold", balance_low_threshold}};
}

json::value admin_team_view(const team_record& t, const balance_record& b) {
  auto view = team_view(t);
  auto& o = view.as_object();
  o["balance"] = balance_view(b, t.balance_low_threshold);
  o["disabled"] = t.disabled_at.has_value();
  o["disabled_at"] = t.disabled_at ? json::value(core::format_iso8601(*t.disabled_at)) : json::value(nullptr);
  o["disabled_reason"] = t.disabled_at ? json::value(t.disabled_reason) : json::value(nullptr);
  return view;
}

json::value api_key_view(const api_key_record& k, const std::string& plaintext) {
  json::value deactivate = nullptr;
  if (k.deactivate_at)
    deactivate = core::format_iso8601(*k.deactivate_at);
  json::object o{{"id", k.id},
                 {"object", "api_key"},
                 {"team_id", k.team_id},
                 {"scope", to_string(k.key_scope)},
                 {"preview", "svc_live_..." + k.last4},
                 {"deactivate_at", deactivate},
                 {"revoked_at", k.revoked_at ? json::value(core::format_iso8601(*k.revoked_at)) : json::value(nullptr)},
                 {"created_at", core::format_iso8601(k.created_at)}};
  o["key"] = plaintext.empty() ? json::value(nullptr) : json::value(plaintext);
  return o;
}

json::value lora_view(const lora_record& l) {
  json::array keywords;
  for (auto& k : l.keywords)
    keywords.emplace_back(k);
  return {{"id", l.id},
          {"object", "lora"},
          {"slug", l.slug},
          {"name", l.name},
          {"description", l.description},
          {"keywords", std::move(keywords)},
          {"builtin", l.builtin},
          {"created_at", core::format_iso8601(l.created_at)}};
}

json::value pricing_view(const price_table& t) {
  json::array items;
  for (auto& i : t.items)
    items.push_back({{"item", i.item}, {"unit", i.unit}, {"credits", i.credits}});
  return {{"object", "pricing"}, {"api_version", t.api_version}, {"currency", "credits"}, {"items", std::move(items)}};
}

json::value list_view(json::array data, bool has_more, std::string_view resume_after) {
  json::value cursor = nullptr;
  if (has_more && !resume_after.empty())
    cursor = resume_after;
  else if (has_more && !data.empty())
    if (auto* o = data.back().if_object())
      if (auto* id = o->if_contains("id"))
        cursor = *id;
  return {{"object", "list"}, {"data", std::move(data)}, {"has_more", has_more}, {"next_cursor", cursor}};
}

} // namespace svc::schema
