// lora add
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"

namespace svc::ctl {
namespace {

// "a,b,,c" -> ["a", "b", "c"]
boost::json::array keywords_of(const std::string& list) {
  boost::json::array words;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    auto word = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!word.empty())
      words.emplace_back(word);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return words;
}

} // namespace

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
                                {"keywords", keywords_of(text_of(vm, "keywords"))}};
       if (vm.count("description"))
         body["description"] = text_of(vm, "description");
       return send_admin_request(g, "POST", "/admin/loras", body);
     }},
  };
}

} // namespace svc::ctl
