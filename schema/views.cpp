#include "schema/views.hpp"

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/json_sink.hpp"

namespace svc::schema {
namespace json = boost::json;
json::value json_number(double d) {
  if (shows_as_integer(d))
    return json::value(static_cast<int64_t>(d));
  return json::value(d);
}

namespace {

// The one description of the team view, for both sinks (json_sink.hpp).
template <class Sink>
void write_team(Sink& w, const team_record& t) {
  w.begin_object();
  w.key("id").string(t.id);
  w.key("object").string("team");
  w.key("name").string(t.name);
  w.key("owner_email").string(t.owner_email);
  w.key("default_api_version").string(t.default_api_version);
  w.key("balance_low_threshold").integer(t.balance_low_threshold);
  w.key("rate_limit_overrides").begin_object();
  for (auto& [name, l] : t.rate_limit_overrides) {
    w.key(name).begin_object();
    w.key("capacity").number(l.capacity);
    w.key("per_minute").number(l.per_minute);
    w.end_object();
  }
  w.end_object();
  w.key("created_at").string(core::format_iso8601(t.created_at));
  w.end_object();
}

} // namespace

json::value team_view(const team_record& t) {
  json_tree tree;
  write_team(tree, t);
  return tree.release();
}

void write_team_view(std::string& out, const team_record& t) {
  json_text text{out};
  write_team(text, t);
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
