#pragma once
// libcurl (and the ~25 libraries it depends on: GnuTLS, Kerberos, LDAP,
// libssh2, ...) is loaded by the first mail sent over SMTP, not at start:
// only a server with `--smtp` needs it. smtp_sender.cpp calls libcurl
// through the forwarders in libcurl_loader.cpp.

#include <string>

namespace svc::clients {

/// Loads libcurl (the major version built against) and sets up its global
/// state, once per process; later calls report the first outcome. Call
/// before any libcurl function: false, with the reason in `error`, when the
/// library is missing or will not initialise. Thread-safe.
bool load_libcurl(std::string& error);

} // namespace svc::clients
