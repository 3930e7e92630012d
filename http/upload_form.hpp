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

#include "http/form_reader.hpp"
#include "schema/checked.hpp"
#include "schema/file_record.hpp"

namespace svc::http {

/// A complete form.
struct upload {
  std::string bytes;            ///< the `file` part's content
  schema::file_purpose purpose; ///< the `purpose` part
};

class upload_form final : public form_reader {
public:
  /// A form whose parts are separated by `boundary`; `expected_bytes` as `form_reader` says.
  upload_form(std::string_view boundary, std::uint64_t expected_bytes);

  /// The body ended: the upload, or the error that refuses the form (a
  /// broken or unfinished body first, then a missing `file`, then `purpose`).
  schema::checked<upload> finish();

private:
  enum class part : uint8_t { other, file, purpose };

  bool on_part_begin(const part_header& header) override;
  bool on_part_data(std::string_view bytes) override;
  bool on_part_end() override;

  part current_ = part::other;
  bool have_file_ = false;
  std::string bytes_;
  std::optional<std::string> purpose_text_; ///< the `purpose` part once begun
};

} // namespace svc::http
