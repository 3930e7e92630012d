#include "core/mail.hpp"

#include <algorithm>
#include <string_view>

#include "core/crypto.hpp"
#include "core/time_format.hpp"

namespace svc::core {
namespace {

constexpr std::string_view crlf = "\r\n";

// RFC 5322 caps a line at 998 characters; a header value past this is cut
// (our subjects and addresses are far shorter, so this only stops abuse).
constexpr std::size_t max_header_value = 900;

// Raw bytes per RFC 2047 encoded word: 36 bytes are 48 base64 characters,
// 60 with `=?UTF-8?B?` and `?=`, so even `Subject: ` and a word stay within
// the 76-character line RFC 2047 allows.
constexpr std::size_t encoded_word_bytes = 36;

// A header value on one line: CR, LF and other control characters (which
// would start a new header or break the line) become spaces.
std::string one_line(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char ch : v) {
    auto c = static_cast<unsigned char>(ch);
    out.push_back((c < 0x20 && c != '\t') || c == 0x7f ? ' ' : ch);
  }
  return out;
}

bool is_ascii(std::string_view v) {
  for (char ch : v)
    if (static_cast<unsigned char>(ch) >= 0x80)
      return false;
  return true;
}

// Length of the longest prefix of `v` of at most `n` bytes that does not end
// inside a UTF-8 sequence.
std::size_t utf8_prefix(std::string_view v, std::size_t n) {
  if (n >= v.size())
    return v.size();
  while (n > 0 && (static_cast<unsigned char>(v[n]) & 0xC0) == 0x80)
    --n;
  return n;
}

// Headers are US-ASCII (RFC 5322); a non-ASCII value becomes RFC 2047
// encoded words, folded one per line.
std::string header_text(std::string_view raw) {
  auto v = one_line(raw);
  v.resize(utf8_prefix(v, max_header_value));
  if (is_ascii(v))
    return v;
  std::string out;
  std::string_view rest{v};
  while (!rest.empty()) {
    auto n = utf8_prefix(rest, encoded_word_bytes);
    if (n == 0) // not UTF-8 at all: never split forever
      n = std::min(rest.size(), encoded_word_bytes);
    if (!out.empty())
      out += "\r\n ";
    out += "=?UTF-8?B?" + base64_encode(rest.substr(0, n)) + "?=";
    rest.remove_prefix(n);
  }
  return out;
}

// An address header: only a display name (`Name <addr>`) may be encoded;
// the address itself stays as written.
std::string address_text(std::string_view raw) {
  auto v = one_line(raw);
  v.resize(utf8_prefix(v, max_header_value));
  auto open = v.rfind('<');
  if (is_ascii(v) || open == std::string::npos || v.back() != '>')
    return v;
  auto name = v.substr(0, open);
  while (!name.empty() && name.back() == ' ')
    name.pop_back();
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') // encoded words replace quoting
    name = name.substr(1, name.size() - 2);
  return (name.empty() ? "" : header_text(name) + " ") + v.substr(open);
}

// A Message-ID's id part keeps only RFC 5322 `atext` and dots.
std::string id_text(std::string_view id) {
  static constexpr std::string_view specials = "!#$%&'*+/=?^_`{|}~.-";
  std::string out;
  for (char ch : id) {
    auto c = static_cast<unsigned char>(ch);
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || specials.find(ch) != std::string_view::npos)
      out.push_back(ch);
  }
  return out.empty() ? "none" : out;
}

// `Tue, 04 Aug 2026 00:00:00 +0000`: the HTTP date form with a numeric zone.
std::string rfc5322_date(time_point t) {
  auto text = format_http_date(t);
  return text.substr(0, text.size() - 3) + "+0000";
}

void add_header(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append(": ").append(value).append(crlf);
}

// LF, CR and CRLF line ends all become CRLF; the body ends with one.
void add_body(std::string& out, std::string_view body) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    char ch = body[i];
    if (ch == '\r') {
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      out.append(crlf);
    } else if (ch == '\n') {
      out.append(crlf);
    } else {
      out.push_back(ch);
    }
  }
  if (!body.empty() && body.back() != '\n' && body.back() != '\r')
    out.append(crlf);
}

} // namespace

std::string format_rfc5322(const mail_message& m, time_point date, const std::string& message_id) {
  std::string out;
  out.reserve(512 + m.body.size() + m.body.size() / 32);
  add_header(out, "From", address_text(m.from));
  add_header(out, "To", address_text(m.to));
  add_header(out, "Subject", header_text(m.subject));
  add_header(out, "Date", rfc5322_date(date));
  add_header(out, "Message-ID", "<" + id_text(message_id) + "@svc>");
  add_header(out, "MIME-Version", "1.0");
  add_header(out, "Content-Type", "text/plain; charset=utf-8");
  add_header(out, "Content-Transfer-Encoding", "8bit");
  out.append(crlf);
  add_body(out, m.body);
  return out;
}

} // namespace svc::core
