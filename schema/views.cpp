#include "schema/views.hpp"

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/record_view.hpp"

namespace svc::schema {
namespace json = boost::json;
json::value json_number(double d) {
  if (shows_as_integer(d))
    return json::value(static_cast<int64_t>(d));
  return json::value(d);
}

json::value team_view(const team_record& t) { return view_tree(t); }

void write_team_view(std::string& out, const team_record& t) {
  json_text text{out};
  write_view(text, t);
}

json::value balance_view(const balance_record& b, int64_t balance_low_threshold) {
  json_tree tree;
  tree.begin_object();
  write_view_members(tree, b);
  // The team's threshold, shown beside the balance it concerns.
  tree.key("balance_low_threshold").integer(balance_low_threshold);
  tree.end_object();
  return tree.release();
}

json::value admin_team_view(const team_record& t, const balance_record& b) {
  auto view = team_view(t);
  auto& o = view.as_object();
  o["balance"] = balance_view(b, t.balance_low_threshold);
  o["disabled"] = t.disabled_at.has_value();
  o["disabled_at"] = t.disabled_at ? json::value(core::format_iso8601(*t.disabled_at)) : json::value(nullptr);
  o["disabled_reason"] = t.disabled_at ? json::value(t.disabled_reason) : json::value(nullptr);
  if (!t.renders.empty()) // only when set: teams that never set it answer as before
    o["renders"] = json::object{{"weight", t.renders.weight}, {"max_concurrent", t.renders.max_concurrent}};
  return view;
}

json::value api_key_view(const api_key_record& k, const std::string& plaintext) {
  json_tree tree;
  tree.begin_object();
  write_view_members(tree, k);
  // The plaintext is no member: only its hash is stored, so only create and rotate can show it.
  tree.key("key");
  if (plaintext.empty())
    tree.null();
  else
    tree.string(plaintext);
  tree.end_object();
  return tree.release();
}

json::value lora_view(const lora_record& l) { return view_tree(l); }

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
