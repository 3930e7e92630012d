#pragma once
// The Cog HTTP API as the Cog back end speaks it (../shared/design/engines.md
// section 2): a prediction's body from a model's input map, the states its
// answers and webhooks carry (coglet and the Python server alike), its
// refusals, its health, and the check of an input map against the model's
// /openapi.json. Pure functions of text, so each is tested alone.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "providers/engines_file.hpp"
#include "providers/render_request.hpp"

namespace svc::providers {

/// What fills a prediction's `input` beside the request itself.
struct cog_inputs {
  const render_request* request = nullptr;
  std::string init_image_uri;          ///< `data:image/png;base64,...`; empty: no init image
  std::vector<std::string> lora_files; ///< the engine's file (or URL) of each of the request's LoRAs
};

/// The prediction's `input`: each mapped Svc field under the model's name for
/// it, then the model's constants. LoRAs go as `|`-joined lists.
boost::json::object cog_input(const model_setup& setup, const cog_inputs& in);

/// The body of `PUT /predictions/<id>`: input, id, webhook and every event.
std::string cog_prediction_body(std::string_view id, const boost::json::object& input, std::string_view webhook);

/// A prediction's state, from a create answer or a webhook.
struct cog_state {
  std::string status;        ///< starting, processing, succeeded, failed, canceled
  boost::json::value output; ///< null until there is some
  std::string error;         ///< the model's error when failed (bounded)
  std::string logs;          ///< the last log lines (bounded)
  bool terminal() const { return status == "succeeded" || status == "failed" || status == "canceled"; }
};

/// Parses an answer or webhook body; nothing when it carries no known status.
std::optional<cog_state> cog_parse_state(std::string_view body);

/// The progress the logs show (tqdm's ` 42%|`), the last one; nothing when none.
std::optional<double> cog_log_progress(std::string_view logs);

/// One line for a refused create (409, 503, 422...), from the body's
/// `error`, `detail` or its 422 `detail[].loc/msg`.
std::string cog_refusal(int status, std::string_view body);

/// The `status` of a /health-check body (`READY`); empty when unreadable.
std::string cog_health(std::string_view body);

/// The output's URIs: one string, or each string of an array.
std::vector<std::string> cog_output_uris(const boost::json::value& output);

/// Empty when `setup`'s input map and constants fit the model's
/// `/openapi.json` (every name exists with a fitting type, every required
/// input is given); else why not, naming the input.
std::string cog_check_inputs(std::string_view openapi, const model_setup& setup);

} // namespace svc::providers
