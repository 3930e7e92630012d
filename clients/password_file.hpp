#pragma once
// A password svcd reads from a file at start (the SMTP relay's, etcd's user's),
// never from its command line, where `ps` would show it.

#include <optional>
#include <string>

namespace svc::clients {

/// The password in `path`: the whole file less one trailing line end. A file
/// others may read or write is refused, like an ssh key, and so is one that
/// is empty or holds more than one line. On failure `error` names `option`
/// and the path, never the file's contents.
std::optional<std::string> read_password_file(const std::string& option, const std::string& path, std::string& error);

} // namespace svc::clients
