// endpoint list | disable | enable
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

// POST /admin/endpoints/{id}/<action> with an empty body.
command endpoint_action(const std::string& action, const std::string& summary) {
  return {"endpoint " + action, "--endpoint ENDPOINT_ID", summary,
          [](po::options_description& d) {
            d.add_options()("endpoint", po::value<std::string>()->required(), "the endpoint's id (we_...)");
          },
          [action](const po::variables_map& vm, const global_options& g) {
            return send_admin_request(g, "POST",
                                      "/admin/endpoints/" + percent_encode(text_of(vm, "endpoint")) + "/" + action);
          }};
}

} // namespace

std::vector<command> endpoint_commands() {
  return {
    team_list_command("endpoint list", "--team TEAM_ID [--limit N] [--after ENDPOINT_ID]",
                      "a team's webhook endpoints, newest first", "/endpoints"),
    endpoint_action("disable", "stop an endpoint's deliveries (its team can re-enable it)"),
    endpoint_action("enable", "resume an endpoint's deliveries and reset its failure count"),
  };
}

} // namespace svc::ctl
