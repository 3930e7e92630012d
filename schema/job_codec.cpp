#include "schema/job_codec.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

bool decode_loras(const json::value& v, std::vector<resolved_lora>& out) {
  auto* a = v.if_array();
  if (!a)
    return false;
  for (auto& item : *a) {
    json_fields f{item};
    resolved_lora l{f.str("lora_id"), f.str("slug"), f.num("weight")};
    if (!f.ok())
      return false;
    out.push_back(std::move(l));
  }
  return true;
}

bool decode_outputs(const json::value& v, std::vector<job_output>& out) {
  auto* a = v.if_array();
  if (!a)
    return false;
  for (auto& item : *a) {
    json_fields f{item};
    job_output o;
    o.content_type = f.str("content_type");
    o.bytes = static_cast<uint64_t>(f.i64("bytes"));
    o.width = static_cast<int>(f.i64("width"));
    o.height = static_cast<int>(f.i64("height"));
    o.sha256 = f.str("sha256");
    if (!f.ok())
      return false;
    out.push_back(std::move(o));
  }
  return true;
}

} // namespace

json::value encode(const job_record& r) {
  json::array loras;
  for (auto& l : r.loras)
    loras.push_back(json::object{{"lora_id", l.lora_id}, {"slug", l.slug}, {"weight", l.weight}});
  json::array outputs;
  for (auto& o : r.outputs)
    outputs.push_back(json::object{{"content_type", o.content_type},
                                   {"bytes", o.bytes},
                                   {"width", o.width},
                                   {"height", o.height},
                                   {"sha256", o.sha256}});
  json::value failure = nullptr;
  if (r.failure)
    failure = json::object{{"code", r.failure->code}, {"message", r.failure->message}};
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"kind", to_string(r.kind)},
          {"status", to_string(r.status)},
          {"prompt", r.prompt},
          {"negative_prompt", r.negative_prompt},
          {"width", r.width},
          {"height", r.height},
          {"num_outputs", r.num_outputs},
          {"seed", r.seed},
          {"steps", r.steps},
          {"duration_seconds", r.duration_seconds},
          {"fps", r.fps},
          {"loras", std::move(loras)},
          {"lora_selection", to_string(r.selection)},
          {"init_image", r.init_image ? json::value(*r.init_image) : json::value(nullptr)},
          {"metadata", string_map_json(r.metadata)},
          {"api_version", r.api_version},
          {"credits", r.credits},
          {"cost_status", to_string(r.cost_status)},
          {"progress", r.progress},
          {"outputs", std::move(outputs)},
          {"outputs_expire_at", optional_unix_ms(r.outputs_expire_at)},
          {"failure", std::move(failure)},
          {"created_at", core::to_unix_ms(r.created_at)},
          {"started_at", optional_unix_ms(r.started_at)},
          {"completed_at", optional_unix_ms(r.completed_at)},
          {"requeue_deadline", optional_unix_ms(r.requeue_deadline)},
          {"correlation", encode(r.correlation)}};
}

bool decode(const json::value& v, job_record& r) {
  json_fields f{v};
  r = job_record{};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  auto kind = f.str("kind");
  auto status = job_status_from_name(f.str("status"));
  r.prompt = f.str("prompt");
  r.negative_prompt = f.str("negative_prompt");
  r.width = static_cast<int>(f.i64("width"));
  r.height = static_cast<int>(f.i64("height"));
  r.num_outputs = static_cast<int>(f.i64("num_outputs"));
  auto seed = f.i64("seed");
  r.steps = static_cast<int>(f.i64("steps"));
  r.duration_seconds = static_cast<int>(f.i64("duration_seconds"));
  r.fps = static_cast<int>(f.i64("fps"));
  auto selection = lora_selection_from_name(f.str("lora_selection"));
  auto& init = f.any("init_image");
  r.api_version = f.str("api_version");
  r.credits = f.i64("credits");
  auto cost_status = hold_status_from_name(f.str("cost_status"));
  r.progress = f.num("progress");
  r.outputs_expire_at = f.opt_time("outputs_expire_at");
  auto& failure = f.any("failure");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.started_at = f.opt_time("started_at");
  r.completed_at = f.opt_time("completed_at");
  r.requeue_deadline = f.opt_time("requeue_deadline"); // absent in jobs stored before it existed
  auto* object = v.if_object();
  if (!f.ok() || !decode(object->if_contains("correlation"), r.correlation) || !status || !selection || !cost_status
      || (kind != "image" && kind != "video")
      || seed < 0 || seed > 0xFFFFFFFFLL || !(init.is_null() || init.is_string()))
    return false;
  r.kind = kind == "image" ? job_kind::image : job_kind::video;
  r.status = *status;
  r.seed = static_cast<uint32_t>(seed);
  r.selection = *selection;
  r.cost_status = *cost_status;
  if (init.is_string())
    r.init_image = std::string{init.get_string()};
  if (failure.is_object()) {
    json_fields ff{failure};
    r.failure = job_failure{ff.str("code"), ff.str("message")};
    if (!ff.ok())
      return false;
  } else if (!failure.is_null()) {
    return false;
  }
  json_fields rest{v};
  r.metadata = rest.string_map("metadata");
  return decode_loras(rest.any("loras"), r.loras) && decode_outputs(rest.any("outputs"), r.outputs) && rest.ok();
}

} // namespace svc::schema
