#include "http/router.hpp"

namespace svc::http {
namespace {

// Matches one template against a path; fills `params` on success.
bool match_template(std::string_view tmpl, std::string_view path, path_params& params) {
  params.clear();
  while (!tmpl.empty() || !path.empty()) {
    if (tmpl.empty() || path.empty() || tmpl[0] != '/' || path[0] != '/')
      return false;
    tmpl.remove_prefix(1);
    path.remove_prefix(1);
    auto t_end = tmpl.find('/');
    auto p_end = path.find('/');
    auto t_seg = tmpl.substr(0, t_end);
    auto p_seg = path.substr(0, p_end);
    if (t_seg.size() > 2 && t_seg.front() == '{' && t_seg.back() == '}') {
      if (p_seg.empty())
        return false;
      params.emplace_back(t_seg.substr(1, t_seg.size() - 2), std::string{p_seg});
    } else if (t_seg != p_seg) {
      return false;
    }
    tmpl = t_end == std::string_view::npos ? std::string_view{} : tmpl.substr(t_end);
    path = p_end == std::string_view::npos ? std::string_view{} : path.substr(p_end);
  }
  return true;
}

} // namespace

route_match router::match(boost::beast::http::verb method, std::string_view path) const {
  route_match out;
  path_params params;
  for (auto& r : routes_) {
    if (!match_template(r.path, path, params))
      continue;
    // HEAD is GET without the body (RFC 9110): the reply drops the body.
    if (r.method == method || (method == boost::beast::http::verb::head && r.method == boost::beast::http::verb::get)) {
      out.matched = &r;
      out.params = std::move(params);
      out.allow.clear();
      return out;
    }
    auto name = boost::beast::http::to_string(r.method);
    if (out.allow.find(std::string{name.data(), name.size()}) == std::string::npos)
      out.allow += (out.allow.empty() ? "" : ", ") + std::string{name.data(), name.size()};
  }
  return out;
}

std::pair<std::string_view, std::string_view> split_target(std::string_view target) {
  auto q = target.find('?');
  if (q == std::string_view::npos)
    return {target, {}};
  return {target.substr(0, q), target.substr(q + 1)};
}

} // namespace svc::http
