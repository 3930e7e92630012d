// usage export
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

namespace json = boost::json;

// One day's row with its team, as a JSON lines record or a CSV line.
json::object day_row(const std::string& team, const json::value& day) {
  auto& d = day.as_object();
  return {{"team_id", team},
          {"date", d.at("date")},
          {"credits_charged", d.at("credits_charged")},
          {"images", d.at("images")},
          {"videos", d.at("videos")}};
}

// CSV needs no quoting here: ids, dates and counts hold no comma, quote or line break.
void print_csv(const std::string& team, const json::value& answer, std::ostream& out) {
  out << "team_id,date,credits_charged,images,videos\n";
  for (auto& day : answer.at("data").as_array()) {
    auto row = day_row(team, day);
    out << team << "," << row.at("date").as_string().c_str() << "," << row.at("credits_charged").as_int64() << ","
        << row.at("images").as_int64() << "," << row.at("videos").as_int64() << "\n";
  }
}

void print_json_lines(const std::string& team, const json::value& answer, std::ostream& out) {
  for (auto& day : answer.at("data").as_array())
    out << json::serialize(day_row(team, day)) << "\n";
}

} // namespace

std::vector<command> usage_commands() {
  return {
    {"usage export", "--team TEAM_ID [--start YYYY-MM-DD] [--end YYYY-MM-DD] [--format csv|jsonl|json]",
     "a team's charged credits, images and videos per UTC day (default: the 30 days ending today)",
     [](po::options_description& d) {
       d.add_options()("team", po::value<std::string>()->required(), "the team")(
         "start", po::value<std::string>(), "first UTC day (default: 29 days before --end)")(
         "end", po::value<std::string>(), "last UTC day, inclusive (default: today)")(
         "format", po::value<std::string>()->default_value("csv"),
         "csv (a header line, then a line per day), jsonl (a JSON object per day) or json (svcd's answer)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       auto format = text_of(vm, "format");
       if (format != "csv" && format != "jsonl" && format != "json")
         throw usage_error{"--format must be csv, jsonl or json"};
       auto team = text_of(vm, "team");
       std::string target = team_path(vm) + "/usage", separator = "?";
       for (auto name : {"start", "end"})
         if (vm.count(name)) {
           target += separator + name + "=" + percent_encode(text_of(vm, name));
           separator = "&";
         }
       answer_printer print;
       if (format == "csv")
         print = [team](const json::value& a, std::ostream& out) { print_csv(team, a, out); };
       else if (format == "jsonl")
         print = [team](const json::value& a, std::ostream& out) { print_json_lines(team, a, out); };
       return send_admin_request(g, "GET", target, {}, print);
     }},
  };
}

} // namespace svc::ctl
