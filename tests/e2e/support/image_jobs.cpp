#include "support/image_jobs.hpp"

#include <ctime>
#include <stdexcept>

#include <boost/json/serialize.hpp>

#include "support/json_util.hpp"
#include "support/wait.hpp"

namespace svc::e2e {

boost::json::object image_body(std::string prompt, int width, int height) {
  return {{"prompt", std::move(prompt)}, {"width", width}, {"height", height}};
}

response create_image(http_client& c, const std::string& key, const boost::json::value& body, header_map more) {
  return c.request("POST", "/v1/images", with_key(key, std::move(more)), boost::json::serialize(body));
}

boost::json::value create_image_ok(http_client& c, const std::string& key, const boost::json::value& body,
                                   header_map more) {
  auto r = create_image(c, key, body, std::move(more));
  if (r.status != 201)
    throw std::runtime_error("POST /v1/images " + boost::json::serialize(body) + " -> " + r.summary());
  return r.json();
}

boost::json::value get_image(http_client& c, const std::string& key, const std::string& id) {
  return c.get("/v1/images/" + id, with_key(key)).json();
}

bool is_terminal_status(std::string_view status) {
  return status == "succeeded" || status == "failed" || status == "cancelled" || status == "expired"
         || status == "moderation_rejected";
}

boost::json::value poll_image(http_client& c, const std::string& key, const std::string& id,
                              const std::function<bool(const boost::json::value&)>& done,
                              std::chrono::milliseconds timeout) {
  boost::json::value last;
  wait_until(
    [&] {
      last = get_image(c, key, id);
      return done(last);
    },
    timeout, std::chrono::milliseconds{20});
  return last;
}

boost::json::value wait_terminal(http_client& c, const std::string& key, const std::string& id,
                                 std::chrono::milliseconds timeout) {
  return poll_image(
    c, key, id, [](const boost::json::value& r) { return is_terminal_status(json_str(r, "status")); }, timeout);
}

boost::json::value wait_status(http_client& c, const std::string& key, const std::string& id,
                               std::string_view status, std::chrono::milliseconds timeout) {
  return poll_image(
    c, key, id,
    [&](const boost::json::value& r) {
      auto s = json_str(r, "status");
      return s == status || is_terminal_status(s);
    },
    timeout);
}

balance_view get_balance(http_client& c, const std::string& key) {
  auto r = c.get("/v1/balance", with_key(key));
  if (r.status != 200)
    return {};
  auto b = r.json();
  return {json_int(b, "available").value_or(-1), json_int(b, "held").value_or(-1)};
}

std::vector<std::string> list_image_ids(http_client& c, const std::string& key, const std::string& query) {
  auto r = c.get("/v1/images?limit=100" + (query.empty() ? "" : "&" + query), with_key(key));
  if (r.status != 200)
    throw std::runtime_error("GET /v1/images -> " + r.summary());
  auto list = r.json();
  std::vector<std::string> ids;
  for (long i = 0; i < json_size(list, "data"); ++i)
    ids.push_back(json_str(list, "data." + std::to_string(i) + ".id"));
  return ids;
}

std::string target_of(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

std::string utc_date(int days) {
  std::time_t t = std::time(nullptr) + static_cast<std::time_t>(days) * 86400;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

} // namespace svc::e2e
