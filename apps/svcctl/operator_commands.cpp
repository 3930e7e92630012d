// actors | cluster | backup | restore
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"
#include "persistence/backup_files.hpp"

namespace svc::ctl {
namespace {

// svcd may run in another directory: a relative --to means one under ours.
std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/')
    return path;
  char* cwd = ::getcwd(nullptr, 0);
  if (!cwd)
    return path;
  std::string out = std::string{cwd} + "/" + path;
  std::free(cwd);
  return out;
}

} // namespace

std::vector<command> operator_commands() {
  return {
    {"actors", "[--kind KIND] [--team TEAM_ID] [--limit N]", "list live actors (kind, id, team, state, mailbox)",
     [](po::options_description& d) {
       d.add_options()("kind", po::value<std::string>(), "job, endpoint, bucket, ledger, ...")(
         "team", po::value<std::string>(), "only this team's actors")("limit", po::value<int64_t>(), "at most N");
     },
     [](const po::variables_map& vm, const global_options& g) {
       std::string target = "/admin/actors", separator = "?";
       for (auto name : {"kind", "team", "limit"})
         if (vm.count(name)) {
           auto value = name == std::string{"limit"} ? std::to_string(vm[name].as<int64_t>()) : text_of(vm, name);
           target += separator + name + "=" + percent_encode(value);
           separator = "&";
         }
       return send_admin_request(g, "GET", target);
     }},
    {"cluster", "", "this node's view of its cluster: members, shard map revision and owners, links to the other nodes",
     [](po::options_description&) {},
     [](const po::variables_map&, const global_options& g) { return send_admin_request(g, "GET", "/admin/cluster"); }},
    {"backup", "--to DIR2", "let svcd copy its store (compacted) into the new or empty directory DIR2",
     [](po::options_description& d) {
       d.add_options()("to", po::value<std::string>()->required(), "the backup directory (svcd's host)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", "/admin/backup", {{"to", absolute(text_of(vm, "to"))}});
     }},
    {"restore", "--from DIR2 [--adopt-secrets]",
     "offline: make --data-dir (new or empty; svcd not running on it) a copy of a backup",
     [](po::options_description& d) {
       d.add_options()("from", po::value<std::string>()->required(), "a directory `svcctl backup` wrote")(
         "adopt-secrets", po::bool_switch(),
         "take the backup's admin.token and url.secret (only for a backup of your own: its URLs and token keep "
         "working); without it svcd makes new ones at its first start");
     },
     [](const po::variables_map& vm, const global_options& g) {
       std::size_t blobs = 0;
       auto secrets = vm["adopt-secrets"].as<bool>() ? persistence::restored_secrets::adopted
                                                     : persistence::restored_secrets::fresh;
       auto st = persistence::restore_data_dir(text_of(vm, "from"), g.data_dir, secrets, blobs);
       if (!st.ok())
         return print_error("restore_failed", st.message, exit_code::refused);
       std::cout << boost::json::serialize(boost::json::object{
                      {"object", "restore"},
                      {"data_dir", absolute(g.data_dir)},
                      {"blobs", blobs},
                      {"secrets", secrets == persistence::restored_secrets::adopted ? "adopted" : "fresh"}})
                 << "\n";
       return exit_code::ok;
     }},
  };
}

} // namespace svc::ctl
