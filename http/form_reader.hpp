#pragma once
// What every form collected from a streamed `multipart/form-data` body shares:
// the parser fed as the body arrives, and the first catalogue error that
// refused the form (broken or unfinished framing is 400 `invalid_body`). A
// form derives from it and decides, part by part, what it keeps.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "http/multipart.hpp"
#include "schema/errors.hpp"

namespace svc::http {

class form_reader : protected part_handler {
public:
  form_reader(const form_reader&) = delete;
  form_reader& operator=(const form_reader&) = delete;

  /// Parses the next body bytes; false once the form is refused (`error()` says why).
  bool feed(std::string_view bytes);

  /// Why the form was refused (after `feed` or `end_of_body` said false).
  const schema::api_error& error() const { return *error_; }

protected:
  /// A form whose parts are separated by `boundary`; `expected_bytes` (the
  /// body's Content-Length, 0 if unknown) sizes the buffer of its file once.
  form_reader(std::string_view boundary, std::uint64_t expected_bytes)
    : parser_{boundary, *this}, expected_bytes_{expected_bytes} {}

  /// Reserves room in `bytes` for a file part that may take the whole body,
  /// so that it is one allocation.
  void reserve_for_file(std::string& bytes) const;

  /// The body ended: false, with `error()` set, when the form was refused or
  /// its framing is broken or unfinished.
  bool end_of_body();

  /// Refuses the form with `e` (an earlier refusal stays); false, for the parser.
  bool refuse(schema::api_error e);

private:
  void refuse_multipart(multipart_error e);

  multipart_parser parser_;
  std::uint64_t expected_bytes_;
  std::optional<schema::api_error> error_;
};

} // namespace svc::http
