// key create | list | rotate | revoke
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

void declare_key(po::options_description& d) {
  d.add_options()("key", po::value<std::string>()->required(), "the key's id (key_...)");
}

// POST /admin/keys/{id}/<action> with an empty body.
command key_action(const std::string& action, const std::string& summary) {
  return {"key " + action, "--key KEY_ID", summary, declare_key,
          [action](const po::variables_map& vm, const global_options& g) {
            return send_admin_request(g, "POST", "/admin/keys/" + percent_encode(text_of(vm, "key")) + "/" + action);
          }};
}

} // namespace

std::vector<command> key_commands() {
  return {
    {"key create", "--team TEAM_ID --scope read|write|full", "issue an API key; the only time its plaintext is shown",
     [](po::options_description& d) {
       declare_team(d);
       d.add_options()("scope", po::value<std::string>()->required(), "read, write or full");
     },
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", "/admin/keys",
                                 {{"team_id", text_of(vm, "team")}, {"scope", text_of(vm, "scope")}});
     }},
    team_list_command("key list", "--team TEAM_ID [--limit N] [--after KEY_ID]",
                      "a team's keys, newest first (never their plaintext)", "/keys"),
    key_action("rotate", "issue a successor; the old key stays valid for --key-grace"),
    key_action("revoke", "invalidate a key at once"),
  };
}

} // namespace svc::ctl
