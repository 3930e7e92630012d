#include "http/upload_form.hpp"

namespace svc::http {
namespace {

using schema::error_code;
using schema::make_api_error;

/// Longer than any purpose name: a bigger `purpose` part is refused while it arrives.
constexpr std::size_t max_purpose_bytes = 32;

schema::api_error invalid(std::string param, std::string detail) {
  return make_api_error(error_code::invalid_parameter, {{"detail", std::move(detail)}}, std::move(param));
}

schema::api_error bad_purpose() { return invalid("purpose", "must be one of init_image, mask"); }

} // namespace

upload_form::upload_form(std::string_view boundary, std::uint64_t expected_bytes)
  : form_reader{boundary, expected_bytes} {}

schema::checked<upload> upload_form::finish() {
  if (!end_of_body())
    return error();
  if (!have_file_)
    return invalid("file", "is required: send the image as the part named 'file'");
  if (!purpose_text_)
    return invalid("purpose", "is required: one of init_image, mask");
  return upload{std::move(bytes_), *schema::file_purpose_from_name(*purpose_text_)};
}

bool upload_form::on_part_begin(const part_header& header) {
  if (header.name == "file") {
    if (have_file_)
      return refuse(invalid("file", "must be sent once"));
    have_file_ = true;
    current_ = part::file;
    reserve_for_file(bytes_);
    return true;
  }
  if (header.name == "purpose") {
    if (purpose_text_)
      return refuse(invalid("purpose", "must be sent once"));
    purpose_text_.emplace();
    current_ = part::purpose;
    return true;
  }
  return refuse(make_api_error(error_code::unknown_parameter, {}, header.name.substr(0, 100)));
}

bool upload_form::on_part_data(std::string_view bytes) {
  if (current_ == part::file) {
    bytes_.append(bytes);
  } else if (current_ == part::purpose) {
    if (purpose_text_->size() + bytes.size() > max_purpose_bytes)
      return refuse(bad_purpose());
    purpose_text_->append(bytes);
  }
  return true;
}

bool upload_form::on_part_end() {
  if (current_ == part::purpose && !schema::file_purpose_from_name(*purpose_text_))
    return refuse(bad_purpose());
  current_ = part::other;
  return true;
}

} // namespace svc::http
