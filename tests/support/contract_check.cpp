#include "contract_check.hpp"

#include "json_schema_check.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cctype>
#include <map>

namespace svc::test {
namespace {

namespace json = boost::json;

std::string lower(std::string_view s) {
  std::string out{s};
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    auto slash = path.find('/', 1);
    out.push_back(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash);
  }
  return out;
}

bool is_param(std::string_view segment) { return segment.size() > 2 && segment[1] == '{' && segment.back() == '}'; }

// How well `path` fits `tmpl`: -1 when it does not; otherwise the literal segments matched, so /v1/images/estimate
// prefers its own template over /v1/images/{id}. A last `{param}` may take the rest of the path only when
// `rest_allowed`: the legacy paths (`x-legacy-of`) keep every segment after their prefix.
int fit(std::string_view tmpl, std::string_view path, bool rest_allowed) {
  auto t = segments(tmpl);
  auto p = segments(path);
  if (t.size() > p.size() || (t.size() < p.size() && !(rest_allowed && !t.empty() && is_param(t.back()))))
    return -1;
  int literals = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_param(t[i]))
      continue;
    if (t[i] != p[i])
      return -1;
    ++literals;
  }
  return literals;
}

bool is_legacy(const json::object& path_item) {
  return std::any_of(path_item.begin(), path_item.end(), [](auto& entry) {
    return entry.value().is_object() && entry.value().as_object().contains("x-legacy-of");
  });
}

std::optional<std::string> header_value(const observed_answer& a, std::string_view name) {
  for (auto& [n, v] : a.headers)
    if (lower(n) == lower(name))
      return v;
  return std::nullopt;
}

// The answers that come before routing (a key in the query, a bad request line, the anonymous bucket) or
// instead of a route (unknown path or method) belong to no operation; they take these shared responses, whose
// status, media type and body are checked but not their headers: both listeners give such answers, and only
// the public one adds the rate-limit headers the shared responses list.
const std::map<int, std::string> routing_answers{
  {400, "BadRequest"}, {404, "NotFound"}, {405, "MethodNotAllowed"}, {429, "TooManyRequests"},
  {431, "HeadersTooLarge"}};

const json::object& resolved(const json::value& document, const json::value& v) {
  auto* ref = v.as_object().if_contains("$ref");
  return ref ? resolve_ref(document, *ref).as_object() : v.as_object();
}

std::optional<std::string> check_headers(const json::value& document, const json::object& response,
                                         const observed_answer& a) {
  auto* headers = response.if_contains("headers");
  if (!headers)
    return std::nullopt;
  for (auto& [name, declared] : headers->as_object()) {
    auto& header = resolved(document, declared);
    auto value = header_value(a, name);
    if (!value) {
      if (header.contains("required") && header.at("required") == true)
        return "required header " + std::string{name} + " is missing";
      continue;
    }
    auto* schema = header.if_contains("schema");
    if (!schema)
      continue;
    auto& s = resolved(document, *schema);
    json::value as_json = json::string{*value};
    if (s.contains("type") && s.at("type") == "integer") {
      json::error_code ec;
      as_json = json::parse(*value, ec);
      if (ec)
        return "header " + std::string{name} + ": " + *value + " is not an integer";
    }
    if (auto m = schema_mismatch(document, *schema, as_json))
      return "header " + std::string{name} + m->substr(4); // "body: ..." -> "header X: ..."
  }
  return std::nullopt;
}

bool media_type_listed(const json::object& content, const std::string& media) {
  for (auto& [listed, unused] : content) {
    auto l = lower(listed);
    if (l == media || l == "*/*" || (l.size() > 2 && l.substr(l.size() - 2) == "/*" && media.rfind(l.substr(0, l.size() - 1), 0) == 0))
      return true;
  }
  return false;
}

std::optional<std::string> check_content(const json::value& document, const json::object& response,
                                         const observed_answer& a, contract_depth depth) {
  bool head = a.method == "HEAD";
  auto* content = response.if_contains("content");
  if (!content) {
    if (!head && !a.body.empty())
      return "a body of " + std::to_string(a.body.size()) + " bytes where the contract documents none";
    return std::nullopt;
  }
  auto type = header_value(a, "Content-Type");
  if (!type)
    return head || a.body.empty() ? std::nullopt : std::optional<std::string>{"no Content-Type"};
  auto media = lower(type->substr(0, type->find(';')));
  media.erase(media.find_last_not_of(' ') + 1);
  auto& listed = content->as_object();
  if (!media_type_listed(listed, media))
    return "Content-Type " + *type + " is not documented";
  if (depth != contract_depth::full || head)
    return std::nullopt;
  bool is_json = media == "application/json" || (media.size() > 5 && media.substr(media.size() - 5) == "+json");
  auto* entry = listed.if_contains(media);
  if (!is_json || !entry || !entry->as_object().contains("schema"))
    return std::nullopt;
  json::error_code ec;
  auto body = json::parse(a.body, ec);
  if (ec)
    return "the body is not JSON: " + ec.message();
  return schema_mismatch(document, entry->as_object().at("schema"), body);
}

} // namespace

contract::contract(json::value document) : document_(std::move(document)) {
  auto collect = [&](const json::value* servers) {
    if (!servers)
      return;
    for (auto& server : servers->as_array()) {
      std::string url{server.at("url").as_string()};
      auto scheme = url.find("://");
      auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
      auto base = slash == std::string::npos ? std::string{} : url.substr(slash);
      while (!base.empty() && base.back() == '/')
        base.pop_back();
      if (std::find(base_paths_.begin(), base_paths_.end(), base) == base_paths_.end())
        base_paths_.push_back(base);
    }
  };
  collect(document_.as_object().if_contains("servers"));
  for (auto& [path, item] : document_.at("paths").as_object())
    collect(item.as_object().if_contains("servers"));
  if (base_paths_.empty())
    base_paths_.emplace_back();
}

const json::value& contract::document() const { return document_; }

std::optional<std::string> contract::path_template(std::string_view path) const {
  for (bool rest_allowed : {false, true}) {
    std::optional<std::string> best;
    int best_fit = -1;
    for (auto& base : base_paths_) {
      if (path.substr(0, base.size()) != base)
        continue;
      auto rest = path.substr(base.size());
      for (auto& [tmpl, item] : document_.at("paths").as_object()) {
        auto f = fit(tmpl, rest, rest_allowed && is_legacy(item.as_object()));
        if (f > best_fit) {
          best_fit = f;
          best = std::string{tmpl};
        }
      }
    }
    if (best)
      return best;
  }
  return std::nullopt;
}

std::optional<std::string> contract::first_mismatch(const observed_answer& a, contract_depth depth) const {
  auto path = a.target.substr(0, a.target.find('?'));
  auto tmpl = path_template(path);
  const json::object* operation = nullptr;
  if (tmpl) {
    auto& item = document_.at("paths").at(*tmpl).as_object();
    operation = item.if_contains(lower(a.method)) ? &item.at(lower(a.method)).as_object() : nullptr;
    if (!operation && a.method == "HEAD" && item.contains("get"))
      operation = &item.at("get").as_object();
  }
  const json::object* response = nullptr;
  auto status = std::to_string(a.status);
  if (operation) {
    auto& responses = operation->at("responses").as_object();
    for (auto key : {status, status.substr(0, 1) + "XX", std::string{"default"}})
      if (auto* r = responses.if_contains(key); r && !response)
        response = &resolved(document_, *r);
    if (!response)
      return "status " + status + " is not documented for " + lower(a.method) + " " + *tmpl;
  } else {
    auto shared = routing_answers.find(a.status);
    if (shared == routing_answers.end())
      return "no operation of the contract answers " + std::string{a.method} + " " + std::string{path}
        + ", and " + status + " is no routing answer";
    response = &document_.at("components").at("responses").at(shared->second).as_object();
  }
  if (depth == contract_depth::full && operation)
    if (auto m = check_headers(document_, *response, a))
      return m;
  return check_content(document_, *response, a, depth);
}

} // namespace svc::test
