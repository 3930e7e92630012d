// svcctl: the operator CLI, a thin client of svcd's admin listener. It reads
// the admin URL from DIR/svcd.json and the token from DIR/admin.token, prints
// the answer's JSON on stdout, or a JSON error on stderr with a non-zero exit.
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include "http/blocking_client.hpp"
#include "persistence/data_dir.hpp"

namespace {

namespace json = boost::json;

const char* usage = R"(usage: svcctl --data-dir DIR <command>
  team create --name NAME --owner-email EMAIL [--credits N]
  team limits --team TEAM_ID --bucket NAME --capacity N --per-minute M
  key create --team TEAM_ID --scope read|write|full
  key rotate --key KEY_ID
  key revoke --key KEY_ID
  credits add --team TEAM_ID --amount N
  lora add --slug SLUG --name NAME [--description TEXT] [--keywords a,b,c]
  actors [--kind KIND] [--team TEAM_ID] [--limit N]
  backup --to DIR2
)";

int fail(const std::string& code, const std::string& message) {
  std::cerr << json::serialize(json::object{{"error", {{"code", code}, {"message", message}}}}) << "\n";
  return 2;
}

struct invocation {
  std::string data_dir = "./svc-data";
  std::vector<std::string> words;            // the command, e.g. {"team", "create"}
  std::map<std::string, std::string> options; // --name value
};

bool parse_args(int argc, char** argv, invocation& inv, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      auto eq = a.find('=');
      std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      std::string value;
      if (eq != std::string::npos)
        value = a.substr(eq + 1);
      else if (i + 1 < argc)
        value = argv[++i];
      else {
        error = "option --" + name + " needs a value";
        return false;
      }
      if (name == "data-dir")
        inv.data_dir = value;
      else
        inv.options[name] = value;
    } else {
      inv.words.push_back(a);
    }
  }
  return true;
}

// A JSON integer or number from an option's text; nullopt if it is not one.
std::optional<json::value> number_of(const std::string& text, bool integer) {
  json::error_code ec;
  auto v = json::parse(text, ec);
  if (ec || !v.is_number() || (integer && v.is_double()))
    return std::nullopt;
  return v;
}

// A path segment or query value: every byte but RFC 3986's unreserved ones escaped.
std::string url_encode(const std::string& s) { return boost::urls::encode(s, boost::urls::unreserved_chars); }

} // namespace

int main(int argc, char** argv) {
  invocation inv;
  std::string error;
  if (!parse_args(argc, argv, inv, error))
    return fail("usage", error);
  if (inv.words.empty())
    return fail("usage", "no command given; run 'svcctl help' for the commands");
  if (inv.words[0] == "help") {
    std::cout << usage;
    return 0;
  }
  auto opt = [&](const std::string& name) -> std::string {
    auto it = inv.options.find(name);
    return it == inv.options.end() ? std::string{} : it->second;
  };
  auto command = inv.words[0] + (inv.words.size() > 1 ? " " + inv.words[1] : "");
  // Each command: required options, then the request it makes.
  std::string method = "POST", target;
  json::object body;
  std::vector<std::string> required;
  if (command == "team create") {
    required = {"name", "owner-email"};
    target = "/admin/teams";
    body = {{"name", opt("name")}, {"owner_email", opt("owner-email")}};
    if (!opt("credits").empty()) {
      auto n = number_of(opt("credits"), true);
      if (!n)
        return fail("usage", "--credits must be an integer");
      body["credits"] = *n;
    }
  } else if (command == "team limits") {
    required = {"team", "bucket", "capacity", "per-minute"};
    target = "/admin/teams/" + url_encode(opt("team")) + "/limits";
    auto cap = number_of(opt("capacity"), false), per = number_of(opt("per-minute"), false);
    if (!opt("capacity").empty() && !cap)
      return fail("usage", "--capacity must be a number");
    if (!opt("per-minute").empty() && !per)
      return fail("usage", "--per-minute must be a number");
    body = {{"bucket", opt("bucket")}};
    if (cap)
      body["capacity"] = *cap;
    if (per)
      body["per_minute"] = *per;
  } else if (command == "key create") {
    required = {"team", "scope"};
    target = "/admin/keys";
    body = {{"team_id", opt("team")}, {"scope", opt("scope")}};
  } else if (command == "key rotate") {
    required = {"key"};
    target = "/admin/keys/" + url_encode(opt("key")) + "/rotate";
  } else if (command == "key revoke") {
    required = {"key"};
    target = "/admin/keys/" + url_encode(opt("key")) + "/revoke";
  } else if (command == "credits add") {
    required = {"team", "amount"};
    target = "/admin/teams/" + url_encode(opt("team")) + "/credits";
    auto n = number_of(opt("amount"), true);
    if (!opt("amount").empty() && !n)
      return fail("usage", "--amount must be an integer");
    if (n)
      body["amount"] = *n;
  } else if (command == "lora add") {
    required = {"slug", "name"};
    target = "/admin/loras";
    body = {{"slug", opt("slug")}, {"name", opt("name")}};
    if (!opt("description").empty())
      body["description"] = opt("description");
    json::array keywords;
    std::string list = opt("keywords");
    for (std::size_t start = 0; !list.empty() && start <= list.size();) {
      auto comma = list.find(',', start);
      auto word = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!word.empty())
        keywords.emplace_back(word);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
    body["keywords"] = std::move(keywords);
  } else if (inv.words[0] == "actors") {
    method = "GET";
    target = "/admin/actors";
    std::string sep = "?";
    for (auto name : {"kind", "team", "limit"})
      if (!opt(name).empty()) {
        target += sep + name + "=" + url_encode(opt(name));
        sep = "&";
      }
  } else if (inv.words[0] == "backup") {
    required = {"to"};
    target = "/admin/backup";
    std::string to = opt("to");
    if (!to.empty() && to[0] != '/')
      if (char* cwd = ::getcwd(nullptr, 0)) {
        to = std::string{cwd} + "/" + to;
        std::free(cwd);
      }
    body = {{"to", to}};
  } else {
    return fail("usage", "unknown command '" + command + "'; run 'svcctl help' for the commands");
  }
  for (auto& r : required)
    if (opt(r).empty())
      return fail("usage", command + " needs --" + r);

  auto info_text = svc::persistence::read_file(inv.data_dir + "/svcd.json");
  auto token = svc::persistence::read_admin_token(inv.data_dir);
  if (!info_text || !token)
    return fail("not_running", "no running svcd found for data directory " + inv.data_dir
                                 + " (missing svcd.json or admin.token)");
  json::error_code ec;
  auto info = json::parse(*info_text, ec);
  auto* admin_url = ec || !info.is_object() ? nullptr : info.as_object().if_contains("admin_url");
  if (!admin_url || !admin_url->is_string())
    return fail("not_running", inv.data_dir + "/svcd.json has no admin_url");
  auto res = svc::http::blocking_request(std::string{admin_url->as_string()}, method, target, *token,
                                         method == "GET" ? std::string{} : json::serialize(body));
  if (res.status == 0)
    return fail("unreachable", "cannot reach svcd at " + std::string{admin_url->as_string()} + ": " + res.error);
  if (res.status >= 300) {
    std::cerr << res.body << "\n";
    return 1;
  }
  std::cout << res.body << "\n";
  return 0;
}
