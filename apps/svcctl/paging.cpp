#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {

void declare_page(po::options_description& d) {
  d.add_options()("limit", po::value<int64_t>(), "at most N items (1..100, default 20)")(
    "after", po::value<std::string>(), "the page after this id (the last id of the previous page)");
}

std::string page_query(const po::variables_map& vm) {
  std::string query;
  if (vm.count("limit"))
    query += "&limit=" + std::to_string(vm["limit"].as<int64_t>());
  if (vm.count("after"))
    query += "&starting_after=" + percent_encode(text_of(vm, "after"));
  if (!query.empty())
    query[0] = '?';
  return query;
}

} // namespace svc::ctl
