#pragma once
// A small synchronous HTTP/1.1 client over Beast for the e2e tests: one
// keep-alive connection per client, plus pipelining of many requests at once.

#include <boost/json/value.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svc::e2e {

/// Request header fields, name -> value.
using header_map = std::map<std::string, std::string>;

/// Host and port of an `http://host:port` URL.
struct endpoint_address {
  std::string host; ///< e.g. 127.0.0.1
  unsigned short port = 0;
};

/// Splits `http://host:port[/...]`; throws std::invalid_argument otherwise.
endpoint_address parse_http_url(const std::string& url);

/// One received response.
struct response {
  int status = 0;                                          ///< HTTP status code
  std::vector<std::pair<std::string, std::string>> headers; ///< in wire order
  std::string body;                                        ///< raw body bytes

  /// The first header named `name` (case-insensitive), if present.
  std::optional<std::string> header(std::string_view name) const;
  /// The header's value, or "" when absent.
  std::string header_or_empty(std::string_view name) const;
  /// The body parsed as JSON; a null value when it is not JSON.
  boost::json::value json() const;
  /// "HTTP <status> <first 400 body bytes>", for assertion messages.
  std::string summary() const;
};

/// One request for `http_client::pipeline`.
struct request_spec {
  std::string method = "GET"; ///< any method token
  std::string target;         ///< path and query
  header_map headers;         ///< extra header fields
  std::string body;           ///< sent with Content-Length when non-empty
};

/// Tags a client of a server other than svcd (chromedriver): its answers are
/// not checked against svcd's contract.
struct foreign_server_t {};
inline constexpr foreign_server_t foreign_server{};

/// A client of one server. Not thread-safe; one connection at a time, kept
/// open between requests unless the server closes it.
class http_client {
public:
  /// A client of `base_url` (`http://host:port`); connects lazily.
  explicit http_client(const std::string& base_url);
  /// A client of `base_url` that is not svcd.
  http_client(const std::string& base_url, foreign_server_t);
  ~http_client();
  http_client(http_client&&) noexcept;
  http_client& operator=(http_client&&) noexcept;

  /// Sends one request and reads its response (for HEAD, headers only). A
  /// reused connection that the server closed while idle is reopened once. Throws std::runtime_error on
  /// transport failure or timeout.
  response request(std::string_view method, std::string_view target, const header_map& headers = {},
                   std::string body = {});
  /// GET shorthand.
  response get(std::string_view target, const header_map& headers = {});

  /// Writes all requests back to back on one fresh connection while reading
  /// the responses; returns them in arrival order. Throws on transport failure.
  std::vector<response> pipeline(const std::vector<request_spec>& requests);

  /// Closes the connection (the next request opens a new one).
  void close();
  /// Connections opened so far; lets tests check keep-alive was used.
  std::size_t connections_opened() const;
  /// Per-request timeout (default 30 s).
  void set_timeout(std::chrono::milliseconds timeout);
  /// The base URL this client talks to.
  const std::string& base_url() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The first whole HTTP/1.1 response in `bytes` (what a raw connection read up to the peer's close), or
/// nullopt when they hold none.
std::optional<response> parse_response(std::string_view bytes);

/// `{"X-Api-Key": key}`, optionally with more fields.
header_map with_key(const std::string& key, header_map more = {});

} // namespace svc::e2e
