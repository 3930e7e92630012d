// team create | list | show | limits
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {

std::vector<command> team_commands() {
  return {
    {"team list", "[--limit N] [--after TEAM_ID]", "list teams with their balances, by id", declare_page,
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "GET", "/admin/teams" + page_query(vm));
     }},
    {"team show", "--team TEAM_ID", "one team with its balance",
     [](po::options_description& d) { d.add_options()("team", po::value<std::string>()->required(), "the team's id"); },
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "GET", "/admin/teams/" + percent_encode(text_of(vm, "team")));
     }},
    {"team create", "--name NAME --owner-email EMAIL [--credits N]", "create a team (with N credits, default 0)",
     [](po::options_description& d) {
       d.add_options()("name", po::value<std::string>()->required(), "the team's display name")(
         "owner-email", po::value<std::string>()->required(), "where the team's mail goes")(
         "credits", po::value<int64_t>(), "starting credits (integer, default 0)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       boost::json::object body{{"name", text_of(vm, "name")}, {"owner_email", text_of(vm, "owner-email")}};
       if (vm.count("credits"))
         body["credits"] = vm["credits"].as<int64_t>();
       return send_admin_request(g, "POST", "/admin/teams", body);
     }},
    {"team limits", "--team TEAM_ID --bucket NAME --capacity N --per-minute M",
     "override one rate-limit bucket class for one team",
     [](po::options_description& d) {
       d.add_options()("team", po::value<std::string>()->required(), "the team's id")(
         "bucket", po::value<std::string>()->required(), "the bucket class (reads, writes, ...)")(
         "capacity", po::value<double>()->required(), "burst size")(
         "per-minute", po::value<double>()->required(), "refill rate per minute");
     },
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", "/admin/teams/" + percent_encode(text_of(vm, "team")) + "/limits",
                                 {{"bucket", text_of(vm, "bucket")},
                                  {"capacity", vm["capacity"].as<double>()},
                                  {"per_minute", vm["per-minute"].as<double>()}});
     }},
  };
}

} // namespace svc::ctl
