#include "clients/mail_senders.hpp"

#include "clients/password_file.hpp"
#include "clients/smtp_sender.hpp"
#include "persistence/outbox.hpp"

namespace svc::clients {

std::unique_ptr<core::mail_sender> make_mail_sender(const core::config& cfg, std::string& error) {
  if (cfg.smtp.empty()) {
    if (!cfg.smtp_password_file.empty()) {
      error = "--smtp-password-file is set but --smtp is not";
      return nullptr;
    }
    return std::make_unique<persistence::outbox_sender>(cfg.data_dir);
  }
  auto relay = core::parse_smtp_url(cfg.smtp);
  if (!relay) {
    error = "--smtp is neither an smtp:// or smtps:// URL nor HOST:PORT";
    return nullptr;
  }
  if (relay->has_password) {
    error = "the --smtp URL holds a password; put it in --smtp-password-file instead";
    return nullptr;
  }
  smtp_options options;
  if (relay->user.empty() != cfg.smtp_password_file.empty()) {
    error = relay->user.empty() ? "--smtp-password-file needs a user in the --smtp URL (smtp://user@host:port)"
                                : "the --smtp URL names a user but --smtp-password-file is not set";
    return nullptr;
  }
  if (!cfg.smtp_password_file.empty()) {
    auto password = read_password_file("smtp-password-file", cfg.smtp_password_file, error);
    if (!password)
      return nullptr;
    options.password = std::move(*password);
  }
  options.relay = std::move(*relay);
  options.ca_file = cfg.smtp_ca_file;
  options.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.smtp_timeout);
  return std::make_unique<smtp_sender>(std::move(options));
}

std::unique_ptr<core::mail_sender> make_mail_fallback(const core::config& cfg) {
  if (cfg.smtp.empty())
    return nullptr;
  return std::make_unique<persistence::outbox_sender>(cfg.data_dir);
}

} // namespace svc::clients
