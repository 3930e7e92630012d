// lora add
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"

namespace svc::ctl {

std::vector<command> lora_commands() {
  return {
    {"lora add", "--slug SLUG --name NAME [--description TEXT] [--keywords a,b,c]", "add a LoRA to the catalogue",
     [](po::options_description& d) {
       d.add_options()("slug", po::value<std::string>()->required(), "the id requests name it by")(
         "name", po::value<std::string>()->required(), "display name")(
         "description", po::value<std::string>(), "one paragraph")(
         "keywords", po::value<std::string>(), "comma-separated search words");
     },
     [](const po::variables_map& vm, const global_options& g) {
       boost::json::object body{{"slug", text_of(vm, "slug")}, {"name", text_of(vm, "name")},
                                {"keywords", comma_separated(text_of(vm, "keywords"))}};
       if (vm.count("description"))
         body["description"] = text_of(vm, "description");
       return send_admin_request(g, "POST", "/admin/loras", body);
     }},
  };
}

} // namespace svc::ctl
