#include "schema/mail_codec.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;

json::value encode(const queued_mail& r) {
  return {{"id", r.id},
          {"from", r.message.from},
          {"to", r.message.to},
          {"subject", r.message.subject},
          {"body", r.message.body},
          {"attempts", r.attempts},
          {"due_at", core::to_unix_ms(r.due_at)},
          {"created_at", core::to_unix_ms(r.created_at)}};
}

bool decode(const json::value& v, queued_mail& r) {
  json_fields f{v};
  r = queued_mail{};
  r.id = f.str("id");
  r.message.from = f.str("from");
  r.message.to = f.str("to");
  r.message.subject = f.str("subject");
  r.message.body = f.str("body");
  auto attempts = f.i64("attempts");
  r.due_at = core::from_unix_ms(f.i64("due_at"));
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  if (!f.ok() || attempts < 0 || attempts > 1000)
    return false;
  r.attempts = static_cast<int>(attempts);
  return true;
}

} // namespace svc::schema
