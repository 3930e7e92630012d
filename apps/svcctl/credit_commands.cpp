// credits add | history | refund
#include <iomanip>

#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

namespace json = boost::json;

void declare_reason(po::options_description& d, const char* what) {
  d.add_options()("reason", po::value<std::string>(), what);
}

// Text of a string-or-null field, "-" for null.
std::string text_or_dash(const json::value& v) { return v.is_string() ? std::string{v.as_string().c_str()} : "-"; }

// One aligned line per entry, newest first, then where the next page starts.
void print_table(const json::value& answer, std::ostream& out) {
  auto row = [&out](const std::string& id, const std::string& time, const std::string& kind, const std::string& amount,
                    const std::string& available, const std::string& held, const std::string& job,
                    const std::string& reason) {
    out << std::left << std::setw(31) << id << std::setw(25) << time << std::setw(8) << kind << std::right
        << std::setw(10) << amount << std::setw(11) << available << std::setw(10) << held << "  " << std::left
        << std::setw(31) << job << reason << "\n";
  };
  row("ID", "TIME", "KIND", "AMOUNT", "AVAILABLE", "HELD", "JOB", "REASON");
  auto& data = answer.at("data").as_array();
  for (auto& e : data) {
    auto& balance = e.at("balance");
    row(e.at("id").as_string().c_str(), e.at("created_at").as_string().c_str(), e.at("kind").as_string().c_str(),
        std::to_string(e.at("amount").as_int64()), std::to_string(balance.at("available").as_int64()),
        std::to_string(balance.at("held").as_int64()), text_or_dash(e.at("job_id")), text_or_dash(e.at("reason")));
  }
  if (answer.at("has_more").as_bool() && !data.empty())
    out << "more: --after " << data.back().at("id").as_string().c_str() << "\n";
}

void print_json_lines(const json::value& answer, std::ostream& out) {
  for (auto& e : answer.at("data").as_array())
    out << json::serialize(e) << "\n";
}

} // namespace

std::vector<command> credit_commands() {
  return {
    {"credits add", "--team TEAM_ID --amount N [--reason TEXT]",
     "add N credits to a team (negative N takes them away), recorded in its history",
     [](po::options_description& d) {
       declare_team(d);
       d.add_options()("amount", po::value<int64_t>()->required(), "credits, an integer");
       declare_reason(d, "why, kept in the team's credit history (up to 500 bytes)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       json::object body{{"amount", vm["amount"].as<int64_t>()}};
       if (vm.count("reason"))
         body["reason"] = text_of(vm, "reason");
       return send_admin_request(g, "POST", team_path(vm) + "/credits", body);
     }},
    {"credits history", "--team TEAM_ID [--limit N] [--after ENTRY_ID] [--format table|jsonl|json]",
     "every change of a team's balance, newest first: grants, holds, charges, releases, refunds",
     [](po::options_description& d) {
       declare_team(d);
       declare_page(d);
       d.add_options()("format", po::value<std::string>()->default_value("table"),
                       "table (a line per entry), jsonl (a JSON object per entry) or json (svcd's answer)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       auto format = text_of(vm, "format");
       if (format != "table" && format != "jsonl" && format != "json")
         throw usage_error{"--format must be table, jsonl or json"};
       answer_printer print;
       if (format == "table")
         print = print_table;
       else if (format == "jsonl")
         print = print_json_lines;
       return send_admin_request(g, "GET", team_path(vm) + "/credits" + page_query(vm), {}, print);
     }},
    {"credits refund", "--job JOB_ID [--reason TEXT]",
     "give back what a succeeded job was charged (once per job), recorded in its team's history",
     [](po::options_description& d) {
       d.add_options()("job", po::value<std::string>()->required(), "the job's id (img_... or vid_...)");
       declare_reason(d, "why, kept in the team's credit history (up to 500 bytes)");
     },
     [](const po::variables_map& vm, const global_options& g) {
       json::object body;
       if (vm.count("reason"))
         body["reason"] = text_of(vm, "reason");
       return send_admin_request(g, "POST", "/admin/jobs/" + percent_encode(text_of(vm, "job")) + "/refund", body);
     }},
  };
}

} // namespace svc::ctl
