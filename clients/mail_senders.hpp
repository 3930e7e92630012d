#pragma once
// Which mail senders svcd uses: the SMTP relay of `--smtp` with the outbox
// as the fallback for what it keeps refusing, or the outbox alone.

#include <memory>
#include <string>

#include "core/config.hpp"
#include "core/mail.hpp"

namespace svc::clients {

/// An `smtp_sender` for `cfg.smtp` (each send within `cfg.smtp_timeout`,
/// AUTH with the password read now from `cfg.smtp_password_file`) when it
/// is set, else an `outbox_sender` writing into `cfg.data_dir`. nullptr and
/// `error` (never holding the password) when the relay's settings do not
/// fit together: a password in the URL, a user without a password file or
/// the reverse, a password file that others may read, is empty or unreadable.
std::unique_ptr<core::mail_sender> make_mail_sender(const core::config& cfg, std::string& error);

/// The mailer's fallback: an `outbox_sender` in `cfg.data_dir` when
/// `cfg.smtp` is set; nullptr otherwise (the primary already is the outbox).
std::unique_ptr<core::mail_sender> make_mail_fallback(const core::config& cfg);

} // namespace svc::clients
