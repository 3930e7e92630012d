#pragma once
// The AUTOMATIC1111 web UI API as the remote back end speaks it (A1111, Forge
// and SD.Next share it): the txt2img/img2img request bodies made from a render
// request, and the checks on their answers and on progress. Pure functions,
// so every rule of the protocol is tested without a server.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "providers/generation_backend.hpp"
#include "providers/render_request.hpp"

namespace svc::providers {

/// Renders from text.
inline constexpr std::string_view a1111_txt2img_path = "/sdapi/v1/txt2img";
/// Renders from an init image.
inline constexpr std::string_view a1111_img2img_path = "/sdapi/v1/img2img";
/// The server's progress; without the preview image, which would cost a PNG encode per poll.
inline constexpr std::string_view a1111_progress_path = "/sdapi/v1/progress?skip_current_image=true";
/// Stops the render the server is running now.
inline constexpr std::string_view a1111_interrupt_path = "/sdapi/v1/interrupt";

/// How far an img2img render may depart from its init image (0 keeps it, 1
/// ignores it): A1111's own default, a recognisable variation of the upload.
inline constexpr double a1111_denoising_strength = 0.75;

/// The largest PNG of `width` x `height` an A1111 server can honestly send:
/// 8-bit RGBA stored without compression, the overhead of its chunks, and
/// room for the generation parameters A1111 writes into it.
std::size_t a1111_max_png_bytes(int width, int height);

/// The most of a render answer to `req` that is read: each asked image and
/// a grid at `a1111_max_png_bytes`, the init image echoed in `parameters`,
/// all in base64, and 1 MiB for the rest. A longer answer is not what was
/// asked for and is refused unread, so a server cannot make svcd hold more
/// (256x256: about 2 MiB; four of 2048x2048 from a 20 MiB upload: 135 MiB).
std::size_t a1111_answer_limit(const render_request& req);

/// The API path that renders `req`: img2img when it has an init image.
std::string_view a1111_render_path(const render_request& req);

/// The prompt as sent: the caller's prompt with `<` and `>` turned into
/// spaces (so it cannot name extra networks the team did not choose), then
/// ` <lora:slug:weight>` per LoRA, the weight written shortest (`0.8`, `1`).
std::string a1111_prompt(const render_request& req);

/// The JSON body for `a1111_render_path(req)`: prompt, negative_prompt, seed,
/// width, height, steps, batch_size = num_outputs, n_iter 1, no saving on the
/// server, images in the answer; img2img adds `init_images` (base64) and
/// `denoising_strength`.
std::string a1111_render_body(const render_request& req);

/// The outputs of a render answer (HTTP 200): exactly `req.num_outputs` PNGs
/// of the requested size, after dropping a leading grid image when there is
/// one image more than asked. A `provider_error` (code `provider_error`) when
/// the body is malformed JSON, lacks `images`, holds bad base64, a non-PNG,
/// a wrong size, a PNG larger than `a1111_max_png_bytes` or a wrong count.
render_outcome a1111_parse_images(std::string_view body, const render_request& req);

/// The server's fraction done (0..1) from a progress answer; nullopt when malformed.
std::optional<double> a1111_parse_progress(std::string_view body);

/// At most 200 characters of an error answer's body for the log (never for
/// `failure.message`: API clients see only the status): control characters as spaces, runs of whitespace collapsed,
/// non-ASCII bytes as `?`.
std::string a1111_error_snippet(std::string_view body);

} // namespace svc::providers
