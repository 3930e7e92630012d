#include "http/mail_senders.hpp"

#include "http/smtp_sender.hpp"
#include "persistence/outbox.hpp"

namespace svc::http {

std::unique_ptr<core::mail_sender> make_mail_sender(const core::config& cfg) {
  if (!cfg.smtp.empty())
    return std::make_unique<smtp_sender>(cfg.smtp, cfg.smtp_timeout);
  return std::make_unique<persistence::outbox_sender>(cfg.data_dir);
}

std::unique_ptr<core::mail_sender> make_mail_fallback(const core::config& cfg) {
  if (cfg.smtp.empty())
    return nullptr;
  return std::make_unique<persistence::outbox_sender>(cfg.data_dir);
}

} // namespace svc::http
