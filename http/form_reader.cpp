#include "http/form_reader.hpp"

#include <algorithm>

#include "schema/file_record.hpp"

namespace svc::http {

void form_reader::reserve_for_file(std::string& bytes) const {
  bytes.reserve(static_cast<std::size_t>(std::min(expected_bytes_, schema::max_file_body_bytes)));
}

bool form_reader::refuse(schema::api_error e) {
  if (!error_)
    error_ = std::move(e);
  return false;
}

void form_reader::refuse_multipart(multipart_error e) {
  refuse(schema::make_api_error(schema::error_code::invalid_body, {{"detail", std::string{describe(e)}}}));
}

bool form_reader::feed(std::string_view bytes) {
  if (error_)
    return false;
  auto e = parser_.feed(bytes);
  if (e != multipart_error::none && e != multipart_error::stopped)
    refuse_multipart(e);
  return !error_;
}

bool form_reader::end_of_body() {
  if (!error_)
    if (auto e = parser_.finish(); e != multipart_error::none && e != multipart_error::stopped)
      refuse_multipart(e);
  return !error_;
}

} // namespace svc::http
