#include "schema/credit_entry_codec.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;

json::value encode(const credit_entry_record& r) {
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"kind", to_string(r.kind)},
          {"amount", r.amount},
          {"available_after", r.available_after},
          {"held_after", r.held_after},
          {"job_id", r.job_id},
          {"reason", r.reason},
          {"created_at", core::to_unix_ms(r.created_at)}};
}

bool decode(const json::value& v, credit_entry_record& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  auto kind = credit_entry_kind_from_name(f.str("kind"));
  r.amount = f.i64("amount");
  r.available_after = f.i64("available_after");
  r.held_after = f.i64("held_after");
  r.job_id = f.str("job_id");
  r.reason = f.str("reason");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  // A damaged amount must not reach the balance arithmetic of a reader.
  if (!f.ok() || !kind || r.amount < -max_credits || r.amount > max_credits || r.available_after < 0
      || r.available_after > max_credits || r.held_after < 0 || r.held_after > max_credits)
    return false;
  r.kind = *kind;
  return true;
}

} // namespace svc::schema
