#include "apps/svcctl/admin_client.hpp"

#include <iostream>
#include <optional>

#include "apps/svcctl/blocking_client.hpp"
#include "persistence/data_dir.hpp"

namespace svc::ctl {
namespace json = boost::json;

namespace {

// The admin URL: --admin-url, else the one the running svcd wrote to DIR/svcd.json.
std::optional<std::string> admin_url_of(const global_options& g, std::string& why) {
  if (!g.admin_url.empty())
    return g.admin_url;
  auto text = persistence::read_file(g.data_dir + "/svcd.json");
  if (!text) {
    why = "no running svcd found for data directory " + g.data_dir + " (no svcd.json; or give --admin-url)";
    return std::nullopt;
  }
  json::error_code ec;
  auto info = json::parse(*text, ec);
  auto* url = ec || !info.is_object() ? nullptr : info.as_object().if_contains("admin_url");
  if (!url || !url->is_string()) {
    why = g.data_dir + "/svcd.json has no admin_url";
    return std::nullopt;
  }
  return std::string{url->as_string()};
}

// The admin token: the first line of --token-file, else DIR/admin.token.
std::optional<std::string> token_of(const global_options& g, std::string& why) {
  if (g.token_file.empty()) {
    auto token = persistence::read_admin_token(g.data_dir);
    if (!token)
      why = "cannot read the admin token " + g.data_dir + "/admin.token (or give --token-file)";
    return token;
  }
  auto text = persistence::read_file(g.token_file);
  if (!text) {
    why = "cannot read the token file " + g.token_file;
    return std::nullopt;
  }
  auto token = text->substr(0, text->find_first_of("\r\n"));
  if (token.empty()) {
    why = "the token file " + g.token_file + " is empty";
    return std::nullopt;
  }
  return token;
}

} // namespace

int print_error(const std::string& code, const std::string& message, int exit) {
  std::cerr << json::serialize(json::object{{"error", {{"code", code}, {"message", message}}}}) << "\n";
  return exit;
}

namespace {

// Sends the request; exit_code::ok with svcd's answer in `res`, or the exit
// code of a failure already printed (no svcd to ask).
int exchange(const global_options& g, const std::string& method, const std::string& target, const json::object& body,
             client_response& res) {
  std::string why;
  auto url = admin_url_of(g, why);
  auto token = url ? token_of(g, why) : std::nullopt;
  if (!url || !token)
    return print_error("not_running", why, exit_code::unreachable);
  res = blocking_request(*url, method, target, *token,
                         method == "GET" || method == "DELETE" ? std::string{} : json::serialize(body));
  if (res.status == 0)
    return print_error("unreachable", "cannot reach svcd at " + *url + ": " + res.error, exit_code::unreachable);
  return exit_code::ok;
}

} // namespace

int send_admin_request(const global_options& g, const std::string& method, const std::string& target,
                       const json::object& body, const answer_printer& print) {
  int exit = exit_code::ok;
  if (print) {
    if (auto answer = admin_json(g, method, target, body, exit))
      print(*answer, std::cout);
    return exit;
  }
  client_response res;
  if (exit = exchange(g, method, target, body, res); exit != exit_code::ok)
    return exit;
  if (res.status >= 300) {
    std::cerr << res.body << "\n";
    return exit_code::refused;
  }
  std::cout << res.body << "\n";
  return exit_code::ok;
}

std::optional<json::value> admin_json(const global_options& g, const std::string& method, const std::string& target,
                                      const json::object& body, int& exit, bool not_yet_ok) {
  client_response res;
  if (exit = exchange(g, method, target, body, res); exit != exit_code::ok)
    return std::nullopt;
  bool owner_away = res.status == 503 && res.body.find("\"owner_unavailable\"") != std::string::npos;
  if ((res.status == 404 || owner_away) && not_yet_ok)
    return std::nullopt;
  if (res.status >= 300) {
    std::cerr << res.body << "\n";
    exit = exit_code::refused;
    return std::nullopt;
  }
  json::error_code ec;
  auto answer = json::parse(res.body, ec);
  if (ec) {
    exit = print_error("bad_answer", "svcd's answer is not JSON: " + ec.message(), exit_code::refused);
    return std::nullopt;
  }
  return answer;
}

} // namespace svc::ctl
