#pragma once
// The form of `POST /v1/files`, collected from a streamed multipart body:
// one `file` part, whose bytes are kept (the only copy of the upload), and
// one `purpose` part (`init_image` | `mask`). Another part, a second `file`
// or `purpose`, or broken framing refuses the form as soon as it is seen,
// with the catalogue error to answer. The part's own Content-Type is
// ignored: the handler sniffs the bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "http/multipart.hpp"
#include "schema/checked.hpp"
#include "schema/file_record.hpp"

namespace svc::http {

/// A complete form.
struct upload {
  std::string bytes;            ///< the `file` part's content
  schema::file_purpose purpose; ///< the `purpose` part
};

class upload_form final : private part_handler {
public:
  /// A form whose parts are separated by `boundary`; `expected_bytes` (the
  /// body's Content-Length, 0 if unknown) sizes the file buffer once.
  upload_form(std::string_view boundary, std::uint64_t expected_bytes);

  /// Parses the next body bytes; false once the form is refused (`error()` says why).
  bool feed(std::string_view bytes);

  /// The body ended: the upload, or the error that refuses the form (a
  /// broken or unfinished body first, then a missing `file`, then `purpose`).
  schema::checked<upload> finish();

  /// Why `feed` refused the form (only after it returned false).
  const schema::api_error& error() const { return *error_; }

private:
  enum class part : uint8_t { other, file, purpose };

  bool on_part_begin(const part_header& header) override;
  bool on_part_data(std::string_view bytes) override;
  bool on_part_end() override;
  bool refuse(schema::api_error e);
  void refuse_multipart(multipart_error e);

  multipart_parser parser_;
  std::uint64_t expected_bytes_;
  part current_ = part::other;
  bool have_file_ = false;
  std::string bytes_;
  std::optional<std::string> purpose_text_; ///< the `purpose` part once begun
  std::optional<schema::api_error> error_;
};

} // namespace svc::http
