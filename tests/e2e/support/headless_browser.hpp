#pragma once
// Headless Chromium for the e2e tests, driven through chromedriver's WebDriver
// HTTP interface on loopback: one browser session with a fresh profile, as a
// root user in a container needs it (no sandbox). Chromium is told not to
// reach any host but loopback. The destructor ends the session and leaves no
// chromedriver or chromium process behind.

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <sys/types.h>

#include "support/http_client.hpp"

namespace svc::e2e {

class headless_browser {
public:
  /// Starts chromedriver on an ephemeral loopback port and opens a session
  /// (viewport `width` x `height`). Throws std::runtime_error when either
  /// does not start (the Debian packages `chromium` and `chromium-driver`).
  explicit headless_browser(int width = 1400, int height = 1000);
  ~headless_browser();
  headless_browser(const headless_browser&) = delete;
  headless_browser& operator=(const headless_browser&) = delete;

  /// Loads `url` and returns once the document has loaded.
  void navigate(const std::string& url);

  /// Runs `body` as a function in the page (`arguments` holds `args`) and
  /// returns its JSON-serialisable result. Throws on a script error.
  boost::json::value run(const std::string& body, boost::json::array args = {});

  /// Resizes the window (and so the viewport).
  void resize(int width, int height);

  /// The viewport as PNG bytes.
  std::string screenshot_png();

private:
  /// Sends a WebDriver command of this session; throws on a WebDriver error.
  boost::json::value command(const std::string& method, const std::string& path, const boost::json::value& body);
  void stop();

  std::string dir_;         ///< temp dir: the profile and chromedriver's log
  std::string profile_dir_; ///< --user-data-dir, unique to this browser: finds its processes at the end
  pid_t driver_ = -1;
  std::optional<http_client> driver_client_;
  std::string session_;
};

} // namespace svc::e2e
