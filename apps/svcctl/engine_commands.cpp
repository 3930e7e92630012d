// engine list | show | add | drain | resume | remove
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

void declare_name(po::options_description& d) {
  d.add_options()("name", po::value<std::string>()->required(), "the engine's name (`local`: the built-in back end)");
}

std::string engine_path(const po::variables_map& vm) { return "/admin/engines/" + percent_encode(text_of(vm, "name")); }

// `engine drain` and `engine resume`: POST to the engine's `what`.
command engine_change(std::string name, std::string what, std::string summary) {
  return {std::move(name), "--name NAME", std::move(summary), declare_name,
          [what](const po::variables_map& vm, const global_options& g) {
            return send_admin_request(g, "POST", engine_path(vm) + "/" + what);
          },
          {"name"}};
}

// "Name: value" -> {"Name": "value"}; a usage error otherwise.
boost::json::object headers_of(const std::vector<std::string>& given) {
  boost::json::object headers;
  for (auto& h : given) {
    auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0)
      throw usage_error("--header needs NAME: VALUE");
    auto value = h.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    headers[h.substr(0, colon)] = value;
  }
  return headers;
}

} // namespace

std::vector<command> engine_commands() {
  return {
    {"engine list", "", "the engines this node schedules: state, slots, renders done and failed, the jobs holding them",
     [](po::options_description&) {},
     [](const po::variables_map&, const global_options& g) { return send_admin_request(g, "GET", "/admin/engines"); }},
    {"engine show", "--name NAME", "one engine", declare_name,
     [](const po::variables_map& vm, const global_options& g) { return send_admin_request(g, "GET", engine_path(vm)); },
     {"name"}},
    {"engine add", "--name NAME --kind KIND --url URL --models a,b [--slots N] [--header 'NAME: VALUE']...",
     "add an engine serving models of the catalogue, checked as the file's are at start; stored, so a restart keeps it",
     [](po::options_description& d) {
       declare_name(d);
       d.add_options()("kind", po::value<std::string>()->required(), "comfyui, cog, a1111 or procedural")(
         "url", po::value<std::string>(), "http://[user:password@]host[:port][/path] (none for procedural)")(
         "models", po::value<std::string>()->required(), "comma-separated ids of catalogue models it serves")(
         "slots", po::value<int64_t>(), "renders it runs at once (default 1)")(
         "header", po::value<std::vector<std::string>>()->composing(), "a header sent on every call (secret)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       boost::json::object body{{"name", text_of(vm, "name")},
                                {"kind", text_of(vm, "kind")},
                                {"models", comma_separated(text_of(vm, "models"))}};
       if (vm.count("url"))
         body["url"] = text_of(vm, "url");
       if (vm.count("slots"))
         body["slots"] = vm["slots"].as<int64_t>();
       if (vm.count("header"))
         body["headers"] = headers_of(vm["header"].as<std::vector<std::string>>());
       return send_admin_request(g, "POST", "/admin/engines", body);
     }},
    engine_change("engine drain", "drain", "give the engine no new renders; those running finish (stored)"),
    engine_change("engine resume", "resume", "give a drained engine renders again (stored)"),
    {"engine remove", "--name NAME", "take the engine out; its running renders finish (stored)", declare_name,
     [](const po::variables_map& vm, const global_options& g) { return send_admin_request(g, "DELETE", engine_path(vm)); },
     {"name"}},
  };
}

} // namespace svc::ctl
