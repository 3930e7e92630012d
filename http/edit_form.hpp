#pragma once
// The form of `POST /v1/images/edits` as OpenAI's SDKs send it, collected
// from a streamed multipart body: one image (part `image`, or `image[]` as
// the SDKs name an array of one), whose bytes are kept, and every other part
// as text for `schema::openai_form_fields`. A second image, a `mask` (Svc
// re-renders the whole image) or a text part over its limit refuses the form
// as soon as it is seen.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "http/form_reader.hpp"
#include "schema/checked.hpp"

namespace svc::http {

/// A complete edit form.
struct edit_parts {
  std::string image;                         ///< the image part's bytes, unsniffed
  std::map<std::string, std::string> fields; ///< every other part's text, by part name
};

class edit_form final : public form_reader {
public:
  /// A form whose parts are separated by `boundary`; `expected_bytes` as `form_reader` says.
  edit_form(std::string_view boundary, std::uint64_t expected_bytes);

  /// The body ended: the parts, or the error that refuses the form (a broken
  /// or unfinished body first, then a missing image).
  schema::checked<edit_parts> finish();

private:
  bool on_part_begin(const part_header& header) override;
  bool on_part_data(std::string_view bytes) override;
  bool on_part_end() override;

  bool in_image_ = false;
  bool have_image_ = false;
  std::string text_name_;        ///< the text part being read; empty between parts and in the image
  edit_parts parts_;
};

} // namespace svc::http
