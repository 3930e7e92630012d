#include "http/edit_form.hpp"

#include <utility>

namespace svc::http {
namespace {

// A text part may hold the longest prompt (4000 code points of up to 4 bytes
// each); more is refused while it arrives rather than kept.
constexpr std::size_t max_edit_text_bytes = 16 * 1024;

schema::api_error invalid_edit_part(std::string param, std::string detail) {
  return schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", std::move(detail)}},
                                std::move(param));
}

} // namespace

edit_form::edit_form(std::string_view boundary, std::uint64_t expected_bytes)
  : form_reader{boundary, expected_bytes} {}

schema::checked<edit_parts> edit_form::finish() {
  if (!end_of_body())
    return error();
  if (!have_image_)
    return invalid_edit_part("image", "is required: send the image to edit as the part named 'image'");
  return std::move(parts_);
}

bool edit_form::on_part_begin(const part_header& header) {
  auto& name = header.name;
  if (name == "image" || name == "image[]") {
    if (have_image_)
      return refuse(invalid_edit_part("image", "takes one image: Svc edits one init image"));
    have_image_ = in_image_ = true;
    reserve_for_file(parts_.image);
    return true;
  }
  if (name == "mask")
    return refuse(invalid_edit_part("mask", "is not supported: Svc renders the whole image anew from the init image"));
  if (parts_.fields.count(name))
    return refuse(invalid_edit_part(name.substr(0, 100), "must be sent once"));
  parts_.fields[name];
  text_name_ = name;
  return true;
}

bool edit_form::on_part_data(std::string_view bytes) {
  if (in_image_) {
    parts_.image.append(bytes);
    return true;
  }
  auto& text = parts_.fields[text_name_];
  if (text.size() + bytes.size() > max_edit_text_bytes)
    return refuse(invalid_edit_part(text_name_.substr(0, 100),
                                    "is longer than " + std::to_string(max_edit_text_bytes) + " bytes"));
  text.append(bytes);
  return true;
}

bool edit_form::on_part_end() {
  in_image_ = false;
  text_name_.clear();
  return true;
}

} // namespace svc::http
