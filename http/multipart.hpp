#pragma once
// A streaming `multipart/form-data` parser (RFC 7578 over the framing of
// RFC 2046): fed the body in chunks of any size, it reports each part's
// headers and then its bytes as they arrive. It holds back at most one
// delimiter's worth of bytes, and hands the rest on as views of the chunk
// it was fed, so an upload is never copied whole. Pure: no I/O. Anything
// that breaks the framing is a typed error.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::http {

/// What a request's `Content-Type` says about a form body.
enum class form_type : uint8_t {
  form_data,     ///< `multipart/form-data` with a valid boundary
  not_form_data, ///< another media type, or none
  bad_boundary,  ///< `multipart/form-data` whose boundary is missing or invalid
};

/// Reads `multipart/form-data; boundary=...` (type and parameter names
/// case-insensitive, the boundary a token or a quoted string of 1..70 RFC
/// 2046 `bchars`, not ending in a space); sets `boundary` for `form_data`.
form_type read_form_type(std::string_view content_type, std::string& boundary);

/// Why a multipart body was refused.
enum class multipart_error : uint8_t {
  none,
  malformed,         ///< what follows a delimiter, or a part's header line, breaks the framing
  headers_too_large, ///< a part's header section is over `max_part_header_bytes`
  no_name,           ///< a part lacks `Content-Disposition: form-data; name="..."`
  truncated,         ///< the body ended before the close delimiter
  stopped,           ///< the part handler refused (it knows why)
};

/// A sentence saying what went wrong, for `error.message`.
std::string_view describe(multipart_error e);

/// The headers of one part that a form needs.
struct part_header {
  std::string name;                    ///< `Content-Disposition` parameter `name`
  std::optional<std::string> filename; ///< `Content-Disposition` parameter `filename`, if sent
  std::string content_type;            ///< the part's `Content-Type` as sent; "" when absent
};

/// Receives the parts of a body in order. Each call may refuse (false),
/// which stops the parse with `multipart_error::stopped`.
class part_handler {
public:
  virtual ~part_handler() = default;
  /// A part begins.
  virtual bool on_part_begin(const part_header& header) = 0;
  /// The next bytes of the current part (never empty; valid during the call only).
  virtual bool on_part_data(std::string_view bytes) = 0;
  /// The current part is complete.
  virtual bool on_part_end() = 0;
};

/// Bytes a part's header section may take.
inline constexpr std::size_t max_part_header_bytes = 8 * 1024;

class multipart_parser {
public:
  /// A parser of parts separated by `boundary` (one `read_form_type`
  /// accepted) reporting to `handler`, which must outlive it.
  multipart_parser(std::string_view boundary, part_handler& handler);

  /// Parses the next bytes of the body; the first error sticks and every
  /// later call returns it.
  multipart_error feed(std::string_view bytes);

  /// The body ended: `truncated` unless the close delimiter was seen (or the earlier error).
  multipart_error finish();

private:
  enum class state : uint8_t { preamble, headers, body, after_delimiter, padding, line_feed, close_dash, epilogue };

  std::size_t scan(std::string_view data, std::size_t at, bool& delimiter);
  bool emit(std::string_view bytes);
  void step(char c);
  void end_of_headers();
  void fail(multipart_error e);

  std::string delimiter_; ///< CRLF "--" boundary
  part_handler& handler_;
  state state_ = state::preamble;
  std::size_t matched_ = 2; ///< delimiter bytes matched and held back; the body's start counts as a CRLF
  std::string headers_;     ///< the current part's header section so far
  bool in_part_ = false;
  multipart_error error_ = multipart_error::none;
};

} // namespace svc::http
