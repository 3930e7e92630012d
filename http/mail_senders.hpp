#pragma once
// Which mail senders svcd uses: the SMTP relay of `--smtp` with the outbox
// as the fallback for what it keeps refusing, or the outbox alone.

#include <memory>

#include "core/config.hpp"
#include "core/mail.hpp"

namespace svc::http {

/// An `smtp_sender` for `cfg.smtp` (each send within `cfg.smtp_timeout`)
/// when it is set, else an `outbox_sender` writing into `cfg.data_dir`.
std::unique_ptr<core::mail_sender> make_mail_sender(const core::config& cfg);

/// The mailer's fallback: an `outbox_sender` in `cfg.data_dir` when
/// `cfg.smtp` is set; nullptr otherwise (the primary already is the outbox).
std::unique_ptr<core::mail_sender> make_mail_fallback(const core::config& cfg);

} // namespace svc::http
