#include "http/query.hpp"

#include <boost/url/grammar/hexdig_chars.hpp>
#include <boost/url/grammar/lut_chars.hpp>
#include <boost/url/params_view.hpp>
#include <boost/url/rfc/pchars.hpp>

namespace svc::http {
namespace {

namespace urls = boost::urls;

// What RFC 3986 allows in a query as it is, besides escapes.
constexpr auto query_chars = urls::pchars + urls::grammar::lut_chars("/?");

// The query with everything Boost.URL would refuse escaped: a `%` that starts
// no escape and a byte outside the query characters. Clients send both (a
// literal `100%`, raw UTF-8), and they reach the handler as they were sent.
std::string escaped_for_parsing(std::string_view q) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) {
    auto c = q[i];
    bool escape = c == '%' && i + 2 < q.size() && urls::grammar::hexdig_chars(q[i + 1])
                  && urls::grammar::hexdig_chars(q[i + 2]);
    if (escape || (c != '%' && query_chars(c))) {
      out.push_back(c);
    } else {
      auto b = static_cast<unsigned char>(c);
      out += {'%', hex[b >> 4], hex[b & 15]};
    }
  }
  return out;
}

} // namespace

query_params parse_query(std::string_view query) {
  auto escaped = escaped_for_parsing(query);
  query_params out;
  // Decoded with `+` as a space, as HTML forms and most clients encode it.
  for (auto param : urls::params_view{escaped}) {
    if (param.key.empty() && !param.has_value)
      continue; // `&&` or a trailing `&`: no pair at all
    out.emplace_back(std::move(param.key), std::move(param.value));
  }
  return out;
}

std::optional<std::string> query_value(const query_params& q, std::string_view name) {
  for (auto& [k, v] : q)
    if (k == name)
      return v;
  return std::nullopt;
}

} // namespace svc::http
