#include "http/multipart.hpp"

#include <functional>

namespace svc::http {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_space(s.back()))
    s.remove_suffix(1);
  return s;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i]))
      return false;
  return true;
}

// RFC 7230 tchar: what a header or parameter name may contain.
bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
         || std::string_view{"!#$%&'*+-.^_`|~"}.find(c) != std::string_view::npos;
}

// RFC 2046 bchars: what a boundary may contain (a space, but not last).
bool is_boundary_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
         || std::string_view{"'()+_,-./:=? "}.find(c) != std::string_view::npos;
}

using parameter_visitor = std::function<void(std::string_view name, std::string value)>;

// The `; name=value` list after a media or disposition type (OWS around
// `;`, values a token or a quoted string with `\` escapes). False when the
// list breaks that syntax.
bool read_parameters(std::string_view s, const parameter_visitor& visit) {
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < s.size() && is_space(s[i]))
      ++i;
  };
  while (true) {
    skip_space();
    if (i == s.size())
      return true;
    if (s[i] != ';')
      return false;
    ++i;
    skip_space();
    if (i == s.size())
      return true; // a trailing `;` is common and harmless
    auto name_start = i;
    while (i < s.size() && is_token_char(s[i]))
      ++i;
    if (i == name_start || i == s.size() || s[i] != '=')
      return false;
    auto name = s.substr(name_start, i - name_start);
    ++i;
    std::string value;
    if (i < s.size() && s[i] == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size())
          ++i;
        value.push_back(s[i]);
      }
      if (i == s.size())
        return false; // no closing quote
      ++i;
    } else {
      auto start = i;
      while (i < s.size() && s[i] != ';' && !is_space(s[i]))
        ++i;
      if (i == start)
        return false;
      value.assign(s.substr(start, i - start));
    }
    visit(name, std::move(value));
  }
}

bool valid_boundary(std::string_view b) {
  if (b.empty() || b.size() > 70 || b.back() == ' ')
    return false;
  for (char c : b)
    if (!is_boundary_char(c))
      return false;
  return true;
}

} // namespace

form_type read_form_type(std::string_view content_type, std::string& boundary) {
  auto semicolon = content_type.find(';');
  if (!iequals(trim(content_type.substr(0, semicolon)), "multipart/form-data"))
    return form_type::not_form_data;
  std::string found;
  bool parsed = semicolon != std::string_view::npos
                && read_parameters(content_type.substr(semicolon), [&](std::string_view name, std::string value) {
                     if (iequals(name, "boundary"))
                       found = std::move(value);
                   });
  if (!parsed || !valid_boundary(found))
    return form_type::bad_boundary;
  boundary = std::move(found);
  return form_type::form_data;
}

std::string_view describe(multipart_error e) {
  switch (e) {
  case multipart_error::none: return "";
  case multipart_error::malformed: return "the multipart/form-data framing is broken";
  case multipart_error::headers_too_large: return "a part's headers exceed 8192 bytes";
  case multipart_error::no_name: return "a part has no 'Content-Disposition: form-data; name=...'";
  case multipart_error::truncated: return "the multipart/form-data body ended before its closing boundary";
  case multipart_error::stopped: return "the form was refused";
  }
  return "";
}

multipart_parser::multipart_parser(std::string_view boundary, part_handler& handler)
  : delimiter_{"\r\n--" + std::string{boundary}}, handler_{handler} {}

void multipart_parser::fail(multipart_error e) {
  if (error_ == multipart_error::none)
    error_ = e;
}

bool multipart_parser::emit(std::string_view bytes) {
  if (state_ == state::preamble)
    return true; // before the first delimiter: ignored
  if (handler_.on_part_data(bytes))
    return true;
  fail(multipart_error::stopped);
  return false;
}

// Hands on the bytes of `data` from `at` up to the next delimiter and
// returns the position after it (`delimiter` set), or hands on everything
// but a possible delimiter start at the end, held back in `matched_`.
std::size_t multipart_parser::scan(std::string_view data, std::size_t at, bool& delimiter) {
  delimiter = false;
  while (at < data.size()) {
    if (matched_ > 0) {
      while (matched_ < delimiter_.size() && at < data.size() && data[at] == delimiter_[matched_]) {
        ++matched_;
        ++at;
      }
      if (matched_ == delimiter_.size()) {
        matched_ = 0;
        delimiter = true;
        return at;
      }
      if (at == data.size())
        return at;
      // Not a delimiter after all: the held-back bytes were content. No later
      // part of them can start a delimiter, since CR (its first byte) occurs
      // in the delimiter nowhere else (boundaries have no CR).
      auto held = std::string_view{delimiter_}.substr(0, matched_);
      matched_ = 0;
      if (!emit(held))
        return data.size();
      continue;
    }
    auto cr = data.find('\r', at);
    auto end = cr == std::string_view::npos ? data.size() : cr;
    if (end > at && !emit(data.substr(at, end - at)))
      return data.size();
    if (cr == std::string_view::npos)
      return data.size();
    matched_ = 1;
    at = cr + 1;
  }
  return at;
}

// One byte of the short stretches between parts: what follows a delimiter
// (`--` closes; optional padding then CRLF opens a part) and a part's headers.
void multipart_parser::step(char c) {
  switch (state_) {
  case state::after_delimiter:
  case state::padding:
    if (c == '-' && state_ == state::after_delimiter)
      state_ = state::close_dash;
    else if (is_space(c))
      state_ = state::padding;
    else if (c == '\r')
      state_ = state::line_feed;
    else
      fail(multipart_error::malformed);
    break;
  case state::line_feed:
    if (c != '\n')
      return fail(multipart_error::malformed);
    state_ = state::headers;
    headers_.clear();
    break;
  case state::close_dash:
    if (c != '-')
      return fail(multipart_error::malformed);
    state_ = state::epilogue;
    break;
  case state::headers: {
    headers_.push_back(c);
    auto n = headers_.size();
    if (headers_ == "\r\n" || (n >= 4 && headers_.compare(n - 4, 4, "\r\n\r\n") == 0))
      end_of_headers();
    else if (n >= max_part_header_bytes)
      fail(multipart_error::headers_too_large);
    break;
  }
  default: break;
  }
}

// Parses the header section (lines `Name: value`, no folding) and starts the part.
void multipart_parser::end_of_headers() {
  std::string_view rest{headers_};
  rest.remove_suffix(2); // the blank line's CRLF; each line keeps its own
  part_header header;
  bool disposition = false;
  while (!rest.empty()) {
    auto eol = rest.find("\r\n");
    auto line = rest.substr(0, eol);
    rest.remove_prefix(eol + 2);
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || line.find_first_of("\r\n") != std::string_view::npos)
      return fail(multipart_error::malformed);
    auto name = line.substr(0, colon);
    for (char c : name)
      if (!is_token_char(c))
        return fail(multipart_error::malformed);
    auto value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Type")) {
      header.content_type = std::string{value};
    } else if (iequals(name, "Content-Disposition")) {
      auto semicolon = value.find(';');
      if (disposition || !iequals(trim(value.substr(0, semicolon)), "form-data"))
        return fail(multipart_error::no_name);
      disposition = true;
      bool ok = semicolon == std::string_view::npos
                || read_parameters(value.substr(semicolon), [&](std::string_view key, std::string v) {
                     if (iequals(key, "name"))
                       header.name = std::move(v);
                     else if (iequals(key, "filename"))
                       header.filename = std::move(v);
                   });
      if (!ok)
        return fail(multipart_error::malformed);
    }
  }
  if (header.name.empty())
    return fail(multipart_error::no_name);
  headers_.clear();
  if (!handler_.on_part_begin(header))
    return fail(multipart_error::stopped);
  state_ = state::body;
  in_part_ = true;
  matched_ = 0;
}

multipart_error multipart_parser::feed(std::string_view data) {
  std::size_t at = 0;
  while (at < data.size() && error_ == multipart_error::none) {
    if (state_ == state::epilogue)
      break; // after the close delimiter: ignored
    if (state_ != state::preamble && state_ != state::body) {
      step(data[at++]);
      continue;
    }
    bool delimiter = false;
    at = scan(data, at, delimiter);
    if (!delimiter || error_ != multipart_error::none)
      continue;
    state_ = state::after_delimiter;
    if (in_part_) {
      in_part_ = false;
      if (!handler_.on_part_end())
        fail(multipart_error::stopped);
    }
  }
  return error_;
}

multipart_error multipart_parser::finish() {
  if (state_ != state::epilogue)
    fail(multipart_error::truncated);
  return error_;
}

} // namespace svc::http
