#pragma once
// The outbox: without an SMTP relay, each e-mail to a team owner becomes one
// RFC 5322 file `DIR/outbox/<unix-ms>-<random>.eml` (mode 0600) that an
// operator or a mail tool picks up (format in FORMAT.md, "Outbox").

#include <memory>
#include <string>

#include "core/clock.hpp"
#include "core/mail.hpp"

namespace svc::persistence {

class outbox_sender final : public core::mail_sender {
public:
  /// Writes into `data_dir + "/outbox"` (created, mode 0700, at the first
  /// message); `clock` gives the Date header and the file name's time.
  explicit outbox_sender(std::string data_dir,
                         std::shared_ptr<const core::clock> clock = core::make_system_clock());

  /// Writes the message atomically (temp file, fsync, rename, folder fsync);
  /// an empty string on success, else the OS error. Thread-safe.
  std::string send(const core::mail_message& m) override;

  /// The folder messages go to.
  const std::string& folder() const { return folder_; }

private:
  std::string folder_;
  std::shared_ptr<const core::clock> clock_;
};

} // namespace svc::persistence
