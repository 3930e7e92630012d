#include "http/upload_form.hpp"

#include <algorithm>

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
  : parser_{boundary, *this}, expected_bytes_{expected_bytes} {}

bool upload_form::refuse(schema::api_error e) {
  if (!error_)
    error_ = std::move(e);
  return false;
}

void upload_form::refuse_multipart(multipart_error e) {
  refuse(make_api_error(error_code::invalid_body, {{"detail", std::string{describe(e)}}}));
}

bool upload_form::feed(std::string_view bytes) {
  if (error_)
    return false;
  auto e = parser_.feed(bytes);
  if (e != multipart_error::none && e != multipart_error::stopped)
    refuse_multipart(e);
  return !error_;
}

schema::checked<upload> upload_form::finish() {
  if (!error_)
    if (auto e = parser_.finish(); e != multipart_error::none && e != multipart_error::stopped)
      refuse_multipart(e);
  if (!error_ && !have_file_)
    refuse(invalid("file", "is required: send the image as the part named 'file'"));
  if (!error_ && !purpose_text_)
    refuse(invalid("purpose", "is required: one of init_image, mask"));
  if (error_)
    return *error_;
  return upload{std::move(bytes_), *schema::file_purpose_from_name(*purpose_text_)};
}

bool upload_form::on_part_begin(const part_header& header) {
  if (header.name == "file") {
    if (have_file_)
      return refuse(invalid("file", "must be sent once"));
    have_file_ = true;
    current_ = part::file;
    // One allocation for the whole file: it is at most the body's size.
    bytes_.reserve(static_cast<std::size_t>(std::min(expected_bytes_, schema::max_file_body_bytes)));
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
