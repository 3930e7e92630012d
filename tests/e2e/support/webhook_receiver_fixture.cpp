#include "support/webhook_receiver_fixture.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "support/json_util.hpp"
#include "support/list_pages.hpp"
#include "support/process.hpp"
#include "support/wait.hpp"

namespace svc::e2e {
namespace json = boost::json;
using receiver::https_receiver;

namespace {

// The PKI and the directory of its files; the directory goes at exit.
struct pki_on_disk {
  receiver::test_pki pki;
  std::string dir;
  std::string ca_file;

  pki_on_disk() : pki(receiver::make_test_pki()), dir(make_temp_dir("svc-e2e-ca-")) {
    receiver::write_test_pki(pki, dir);
    ca_file = dir + "/ca.pem";
  }
  ~pki_on_disk() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

pki_on_disk& pki_files() {
  static pki_on_disk files;
  return files;
}

bool all_of_class(std::string_view s, std::string_view allowed) {
  for (char c : s)
    if (allowed.find(c) == std::string_view::npos)
      return false;
  return true;
}

// Constant time is not needed in a test; plain equality reads better.
bool same(std::string_view a, std::string_view b) { return a == b; }

} // namespace

const receiver::test_pki& webhook_test_pki() { return pki_files().pki; }

const std::string& webhook_ca_file() { return pki_files().ca_file; }

std::vector<std::string> webhook_svcd_args(std::vector<std::string> extra, bool allow_private) {
  std::vector<std::string> args{"--webhook-ca-file", webhook_ca_file()};
  if (allow_private)
    args.push_back("--webhook-allow-private");
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::unique_ptr<https_receiver> make_trusted_receiver() {
  receiver::receiver_options o;
  o.tls = webhook_test_pki().server;
  o.threads = 2;
  return std::make_unique<https_receiver>(std::move(o));
}

std::unique_ptr<https_receiver> make_untrusted_receiver() {
  receiver::receiver_options o;
  o.tls = receiver::make_untrusted_server();
  return std::make_unique<https_receiver>(std::move(o));
}

webhook_fixture::webhook_fixture(std::vector<std::string> extra_args, bool allow_private)
  : server_fixture(webhook_svcd_args(std::move(extra_args), allow_private)), hooks(make_trusted_receiver()) {}

// ---- signatures ----

std::string hmac_sha256_raw(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len))
    throw std::runtime_error("HMAC failed");
  return std::string(reinterpret_cast<const char*>(mac), len);
}

std::string to_hex_lower(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (text.size() % 4 != 0)
    return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    unsigned v = 0;
    int pad = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      char c = text[i + j];
      unsigned d = 0;
      if (c == '=') {
        if (i + 4 != text.size() || j < 2)
          return std::nullopt;
        ++pad;
      } else {
        if (pad > 0)
          return std::nullopt;
        auto p = alphabet.find(c);
        if (p == std::string_view::npos)
          return std::nullopt;
        d = static_cast<unsigned>(p);
      }
      v = (v << 6) | d;
    }
    out.push_back(static_cast<char>((v >> 16) & 0xff));
    if (pad < 2)
      out.push_back(static_cast<char>((v >> 8) & 0xff));
    if (pad < 1)
      out.push_back(static_cast<char>(v & 0xff));
  }
  return out;
}

std::optional<svc_signature> parse_svc_signature(std::string_view header) {
  // t=DDDDDDDDDD,v1=<64 hex>
  if (header.size() != 2 + 10 + 4 + 64 || header.substr(0, 2) != "t=" || header.substr(12, 4) != ",v1=")
    return std::nullopt;
  auto t = header.substr(2, 10);
  auto v1 = header.substr(16);
  if (!all_of_class(t, "0123456789") || !all_of_class(v1, "0123456789abcdef"))
    return std::nullopt;
  return svc_signature{std::string{t}, std::string{v1}};
}

bool svc_signature_valid(const received_request& r, const std::string& secret) {
  auto header = r.header("Svc-Webhook-Signature");
  if (!header)
    return false;
  auto sig = parse_svc_signature(*header);
  if (!sig)
    return false;
  auto expected = to_hex_lower(hmac_sha256_raw(secret, sig->t + "." + r.body));
  return same(expected, sig->v1);
}

bool standard_signature_valid(const received_request& r, const std::string& secret) {
  auto id = r.header("webhook-id");
  auto ts = r.header("webhook-timestamp");
  auto sig = r.header("webhook-signature");
  if (!id || !ts || !sig || ts->empty() || !all_of_class(*ts, "0123456789"))
    return false;
  if (secret.rfind("whsec_", 0) != 0)
    return false;
  auto key = base64_decode(std::string_view{secret}.substr(6));
  if (!key)
    return false;
  auto expected = "v1," + base64_encode(hmac_sha256_raw(*key, *id + "." + *ts + "." + r.body));
  // The header may list several space-separated signatures; one must match.
  std::string_view rest = *sig;
  while (!rest.empty()) {
    auto space = rest.find(' ');
    if (same(rest.substr(0, space), expected))
      return true;
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return false;
}

// ---- receipts ----

std::vector<receipt> receipts_of(const https_receiver& r) {
  std::vector<receipt> out;
  for (auto& req : r.requests()) {
    receipt rc;
    rc.request = req;
    boost::system::error_code ec;
    auto v = json::parse(req.body, ec);
    if (!ec) {
      rc.envelope = std::move(v);
      rc.event_id = json_str(rc.envelope, "id");
      rc.type = json_str(rc.envelope, "type");
    }
    out.push_back(std::move(rc));
  }
  return out;
}

std::vector<receipt> receipts_of_type(const https_receiver& r, std::string_view type) {
  std::vector<receipt> out;
  for (auto& rc : receipts_of(r))
    if (rc.type == type)
      out.push_back(std::move(rc));
  return out;
}

bool wait_for_receipts(const https_receiver& r, std::size_t n, const std::function<bool(const receipt&)>& match,
                       std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto all = receipts_of(r);
    std::size_t hits = 0;
    for (auto& rc : all)
      if (match(rc))
        ++hits;
    if (hits >= n)
      return true;
    // Sleeps until one more request arrives (or the deadline).
    if (!r.wait_for(all.size() + 1, deadline))
      return false;
  }
}

std::optional<receipt> wait_for_receipt(const https_receiver& r, const std::function<bool(const receipt&)>& match,
                                        std::chrono::milliseconds timeout) {
  if (!wait_for_receipts(r, 1, match, timeout))
    return std::nullopt;
  for (auto& rc : receipts_of(r))
    if (match(rc))
      return rc;
  return std::nullopt;
}

std::function<bool(const receipt&)> event_is(std::string id) {
  return [id = std::move(id)](const receipt& rc) { return rc.event_id == id; };
}

std::function<bool(const receipt&)> type_is(std::string type) {
  return [type = std::move(type)](const receipt& rc) { return rc.type == type; };
}

std::function<bool(const receipt&)> job_event(std::string type, std::string job_id) {
  return [type = std::move(type), job_id = std::move(job_id)](const receipt& rc) {
    return rc.type == type && json_str(rc.envelope, "data.id") == job_id;
  };
}

// ---- routes ----

response create_endpoint(http_client& c, const std::string& key, const std::string& url, json::array events) {
  json::object body{{"url", url}, {"events", std::move(events)}};
  return c.request("POST", "/v1/webhook_endpoints", with_key(key), json::serialize(body));
}

json::value create_endpoint_ok(http_client& c, const std::string& key, const std::string& url, json::array events) {
  auto r = create_endpoint(c, key, url, std::move(events));
  if (r.status != 201)
    throw std::runtime_error("POST /v1/webhook_endpoints " + url + " -> " + r.summary());
  return r.json();
}

json::value get_endpoint(http_client& c, const std::string& key, const std::string& id) {
  return c.get("/v1/webhook_endpoints/" + id, with_key(key)).json();
}

response patch_endpoint(http_client& c, const std::string& key, const std::string& id, const json::value& body) {
  return c.request("PATCH", "/v1/webhook_endpoints/" + id, with_key(key), json::serialize(body));
}

response test_fire(http_client& c, const std::string& key, const std::string& endpoint_id,
                   const std::string& event_type, header_map more) {
  json::object body{{"event_type", event_type}};
  return c.request("POST", "/v1/webhook_endpoints/" + endpoint_id + "/test", with_key(key, std::move(more)),
                   json::serialize(body));
}

std::string test_fire_ok(http_client& c, const std::string& key, const std::string& endpoint_id,
                         const std::string& event_type, header_map more) {
  auto r = test_fire(c, key, endpoint_id, event_type, std::move(more));
  if (r.status != 202)
    throw std::runtime_error("POST /v1/webhook_endpoints/" + endpoint_id + "/test -> " + r.summary());
  return json_str(r.json(), "event_id");
}

response get_deliveries(http_client& c, const std::string& key, const std::string& endpoint_id,
                        const std::string& query) {
  return c.get("/v1/webhook_endpoints/" + endpoint_id + "/deliveries" + (query.empty() ? "" : "?" + query),
               with_key(key));
}

std::vector<json::value> all_deliveries(http_client& c, const std::string& key, const std::string& endpoint_id) {
  return all_pages(c, key, "/v1/webhook_endpoints/" + endpoint_id + "/deliveries");
}

std::vector<json::value> wait_deliveries(http_client& c, const std::string& key, const std::string& endpoint_id,
                                         const std::function<bool(const std::vector<json::value>&)>& done,
                                         std::chrono::milliseconds timeout) {
  std::vector<json::value> last;
  wait_until(
    [&] {
      last = all_deliveries(c, key, endpoint_id);
      return done(last);
    },
    timeout, std::chrono::milliseconds{50});
  return last;
}

// ---- misc ----

std::string iso8601_ms(std::chrono::system_clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms % 1000));
  return out;
}

std::uint16_t closed_local_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
      || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("bind failed");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

void raise_bucket(server_fixture& f, const std::string& team_id, const std::string& bucket) {
  f.ctl_ok({"team", "limits", "--team", team_id, "--bucket", bucket, "--capacity", "1000", "--per-minute", "6000"});
}

team_keys create_webhook_team(server_fixture& f, std::int64_t credits) {
  auto t = f.create_team_with_keys(credits);
  for (const char* bucket : {"reads", "webhooks_test", "webhook_endpoints_post"})
    raise_bucket(f, t.id, bucket);
  return t;
}

} // namespace svc::e2e
