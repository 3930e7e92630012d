#include "clients/mail_senders.hpp"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <optional>

#include "clients/smtp_sender.hpp"
#include "persistence/outbox.hpp"

namespace svc::clients {
namespace {

// The password in `path`: the whole file less one trailing line end. A file
// others may read or write is refused, like an ssh key: the password opens
// the relay to anyone who has it.
std::optional<std::string> read_password(const std::string& path, std::string& error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "--smtp-password-file " + path + " is not a readable file";
    return std::nullopt;
  }
  if ((st.st_mode & (S_IROTH | S_IWOTH)) != 0) {
    error = "--smtp-password-file " + path + " is readable or writable by others (chmod o-rwx it)";
    return std::nullopt;
  }
  std::ifstream in{path, std::ios::binary};
  std::string text{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
  if (!in.good() && !in.eof()) {
    error = "--smtp-password-file " + path + " is not a readable file";
    return std::nullopt;
  }
  if (!text.empty() && text.back() == '\n')
    text.pop_back();
  if (!text.empty() && text.back() == '\r')
    text.pop_back();
  if (text.empty() || text.find_first_of(std::string{"\r\n\0", 3}) != std::string::npos) {
    error = "--smtp-password-file " + path + " must hold the password on one line";
    return std::nullopt;
  }
  return text;
}

} // namespace

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
    auto password = read_password(cfg.smtp_password_file, error);
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
