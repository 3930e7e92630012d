#pragma once
// ComfyUI's HTTP and websocket API as the ComfyUI back end speaks it
// (../shared/design/engines.md section 1): the prompt made from a workflow
// and a render request, the answers to it, the websocket's events and the
// history entry. Pure functions, so every rule is tested without a server.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json/object.hpp>

#include "providers/engines_file.hpp"
#include "providers/generation_backend.hpp"

namespace svc::providers {

/// What the workflow's bound inputs get for one render.
struct comfy_inputs {
  const render_request* request = nullptr;
  std::string init_image;               ///< the name `/upload/image` returned (`svc/x.png`); empty: none
  std::vector<std::string> lora_files;  ///< per `request->loras` entry, the file on the engine
  double denoise = 0.75;                ///< for an init image
};

/// The API-format prompt: `workflow`'s graph with its bound inputs set and
/// the request's LoRAs chained as `LoraLoader` nodes after the first
/// `CheckpointLoaderSimple` (every link from its MODEL and CLIP then comes
/// from the last LoRA). A `provider_error` when LoRAs are asked and the
/// workflow has no checkpoint loader.
std::variant<boost::json::object, provider_error> comfy_prompt(const comfy_workflow& workflow,
                                                              const comfy_inputs& inputs);

/// The body of `POST /prompt`.
std::string comfy_prompt_body(const boost::json::object& prompt, std::string_view client_id,
                              std::string_view prompt_id);

/// Why `POST /prompt` refused (any status but 200, or 200 with non-empty
/// `node_errors`): the node, its class and the first error's message, in
/// words fit for `failure.message`; nullopt for a 200 without node errors.
std::optional<std::string> comfy_submit_refusal(int status, std::string_view body);

/// The `prompt_id` an accepted `POST /prompt` answered; empty when none.
std::string comfy_accepted_id(std::string_view body);

/// One websocket text frame, as far as the back end reads it.
struct comfy_event {
  std::string type;       ///< `status`, `executing`, `progress`, `execution_error`, ...
  std::string prompt_id;  ///< empty when the event has none
  bool node_null = false; ///< `executing` with `node: null`: the prompt ended
  double value = 0;       ///< `progress`
  double max = 0;         ///< `progress`
  std::string exception_type;    ///< `execution_error`
  std::string exception_message; ///< `execution_error`, for the log only
};

/// A text frame's event; nullopt when it is not `{type, data}` JSON.
std::optional<comfy_event> comfy_parse_event(std::string_view text);

/// One file an output node saved.
struct comfy_output_file {
  std::string filename;
  std::string subfolder;
  std::string type; ///< `output`, `temp`
};

/// A finished prompt's history entry.
struct comfy_history {
  bool success = false;           ///< `status_str` is `success`
  bool interrupted = false;       ///< the last message is `execution_interrupted`
  std::string exception_type;     ///< from an `execution_error` message
  std::vector<comfy_output_file> files; ///< every media list of every output node, in node order
};

/// The entry for `prompt_id` in a `/history/{id}` answer; nullopt when the
/// answer is `{}` (not finished, or unknown) or has no entry for it.
/// A malformed answer is a `provider_error`.
std::variant<std::optional<comfy_history>, provider_error> comfy_parse_history(std::string_view body,
                                                                              std::string_view prompt_id);

/// Whether a `/queue` answer lists `prompt_id` as running or pending.
bool comfy_queue_holds(std::string_view body, std::string_view prompt_id);

/// The content type of an output by its extension (`.png` -> `image/png`,
/// `.mp4` -> `video/mp4`, `.webm`, `.webp`, `.jpg`); empty for others.
std::string_view comfy_content_type(std::string_view filename);

/// The query of `/view` for a file (each value percent-encoded).
std::string comfy_view_query(const comfy_output_file& f);

/// A multipart body for `/upload/image`: the file part `image` named
/// `name`, into `subfolder`, with `overwrite` true.
std::string comfy_upload_body(std::string_view boundary, std::string_view name, std::string_view subfolder,
                              std::string_view bytes);

/// The name to put into `LoadImage` from an `/upload/image` answer
/// (`subfolder/name`); nullopt when it is malformed.
std::optional<std::string> comfy_uploaded_name(std::string_view body);

/// What in `workflow` the server's `/object_info` does not have: a node
/// class, a required input the node lacks, a value not in an input's list
/// (a model file not installed). Empty when none; else one line naming the
/// node and the input. `LoadImage.image` is not checked (uploads come later).
std::string comfy_check_workflow(const comfy_workflow& workflow, const boost::json::object& object_info);

/// Whether `/object_info` lists `file` among `LoraLoader`'s `lora_name`s.
bool comfy_has_lora_file(const boost::json::object& object_info, std::string_view file);

} // namespace svc::providers
