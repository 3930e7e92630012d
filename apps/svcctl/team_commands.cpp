// team create | list | show | update | disable | enable | limits
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"

namespace svc::ctl {

std::vector<command> team_commands() {
  return {
    {"team list", "[--limit N] [--after TEAM_ID]", "list teams with their balances, by id", declare_page,
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "GET", "/admin/teams" + page_query(vm));
     }},
    {"team show", "--team TEAM_ID", "one team with its balance", declare_team,
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "GET", team_path(vm));
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
    {"team update",
     "--team TEAM_ID [--name NAME] [--owner-email EMAIL] [--balance-low-threshold N] [--default-api-version V]",
     "change a team's name, owner e-mail, low-balance threshold or default Svc-Version",
     [](po::options_description& d) {
       declare_team(d);
       d.add_options()("name", po::value<std::string>(), "the new display name")(
         "owner-email", po::value<std::string>(), "where the team's mail goes from now on")(
         "balance-low-threshold", po::value<int64_t>(), "credits at or below which usage.balance_low fires")(
         "default-api-version", po::value<std::string>(), "the Svc-Version of requests that name none");
     },
     [](const po::variables_map& vm, const global_options& g) {
       boost::json::object body;
       for (auto [option, field] : {std::pair{"name", "name"}, {"owner-email", "owner_email"},
                                    {"default-api-version", "default_api_version"}})
         if (vm.count(option))
           body[field] = text_of(vm, option);
       if (vm.count("balance-low-threshold"))
         body["balance_low_threshold"] = vm["balance-low-threshold"].as<int64_t>();
       if (body.empty())
         throw usage_error("team update: give at least one of --name, --owner-email, --balance-low-threshold, "
                           "--default-api-version");
       return send_admin_request(g, "PATCH", team_path(vm), body);
     }},
    {"team disable", "--team TEAM_ID [--reason TEXT]",
     "refuse every API request with the team's keys (403 team_disabled) until team enable",
     [](po::options_description& d) {
       declare_team(d);
       d.add_options()("reason", po::value<std::string>(), "a note for operators (never shown to the team)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       boost::json::object body;
       if (vm.count("reason"))
         body["reason"] = text_of(vm, "reason");
       return send_admin_request(g, "POST", team_path(vm) + "/disable", body);
     }},
    {"team enable", "--team TEAM_ID", "give a disabled team's keys their access back at once", declare_team,
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", team_path(vm) + "/enable");
     }},
    {"team limits", "--team TEAM_ID (--bucket NAME --capacity N --per-minute M | --weight W [--max-concurrent N])",
     "override one rate-limit bucket class for one team, or set its share of the render engines",
     [](po::options_description& d) {
       declare_team(d);
       d.add_options()("bucket", po::value<std::string>(), "the bucket class (reads, writes, ...)")(
         "capacity", po::value<double>(), "burst size")("per-minute", po::value<double>(), "refill rate per minute")(
         "weight", po::value<double>(), "its share of engine seconds against other teams' weights (default 1)")(
         "max-concurrent", po::value<int64_t>(), "most renders at once (0: no cap of its own)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       bool bucket = vm.count("bucket") || vm.count("capacity") || vm.count("per-minute");
       bool renders = vm.count("weight") || vm.count("max-concurrent");
       if (bucket == renders)
         throw usage_error{"give --bucket, --capacity and --per-minute, or --weight and/or --max-concurrent"};
       if (renders) {
         boost::json::object body;
         body["weight"] = vm.count("weight") ? vm["weight"].as<double>() : 1.0;
         body["max_concurrent"] = vm.count("max-concurrent") ? vm["max-concurrent"].as<int64_t>() : 0;
         return send_admin_request(g, "POST", team_path(vm) + "/renders", body);
       }
       for (const char* name : {"bucket", "capacity", "per-minute"})
         if (!vm.count(name))
           throw usage_error{std::string{"--"} + name + " is required with --bucket, --capacity and --per-minute"};
       return send_admin_request(g, "POST", team_path(vm) + "/limits",
                                 {{"bucket", text_of(vm, "bucket")},
                                  {"capacity", vm["capacity"].as<double>()},
                                  {"per_minute", vm["per-minute"].as<double>()}});
     }},
  };
}

} // namespace svc::ctl
