// credits add
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {

std::vector<command> credit_commands() {
  return {
    {"credits add", "--team TEAM_ID --amount N", "add N credits to a team (negative N takes them away)",
     [](po::options_description& d) {
       d.add_options()("team", po::value<std::string>()->required(), "the team's id")(
         "amount", po::value<int64_t>()->required(), "credits, an integer");
     },
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", "/admin/teams/" + percent_encode(text_of(vm, "team")) + "/credits",
                                 {{"amount", vm["amount"].as<int64_t>()}});
     }},
  };
}

} // namespace svc::ctl
