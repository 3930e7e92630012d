// A request as the session reads it: Beast's parser with the session's head
// and body limits, fed in two pieces; a complete request's target goes
// through the query parser and its Range header through the range parser.
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/byte_range.hpp"
#include "http/query.hpp"

namespace http = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view all(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t split = data[0] % (all.size() + 1);
  http::request_parser<http::string_body> parser;
  parser.header_limit(16 * 1024);
  parser.body_limit(1024 * 1024);
  parser.eager(true);
  boost::beast::error_code ec;
  std::size_t used = parser.put(boost::asio::buffer(all.data(), split), ec);
  if (!ec || ec == http::error::need_more)
    parser.put(boost::asio::buffer(all.data() + used, all.size() - used), ec);
  if (!parser.is_header_done())
    return 0;
  const auto& req = parser.get();
  const std::string_view target = req.target();
  if (auto q = target.find('?'); q != std::string_view::npos)
    svc::http::parse_query(target.substr(q + 1));
  if (auto it = req.find(http::field::range); it != req.end())
    svc::http::parse_range(std::string_view{it->value()}, all.size());
  return 0;
}
