#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {

void declare_team(po::options_description& d) {
  d.add_options()("team", po::value<std::string>()->required(), "the team's id");
}

std::string team_path(const po::variables_map& vm) { return "/admin/teams/" + percent_encode(text_of(vm, "team")); }

command team_list_command(std::string name, std::string synopsis, std::string summary, std::string path) {
  return {std::move(name), std::move(synopsis), std::move(summary),
          [](po::options_description& d) {
            declare_team(d);
            declare_page(d);
          },
          [path = std::move(path)](const po::variables_map& vm, const global_options& g) {
            return send_admin_request(g, "GET", team_path(vm) + path + page_query(vm));
          }};
}

} // namespace svc::ctl
