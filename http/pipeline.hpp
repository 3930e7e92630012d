#pragma once
// The request pipelines, their stage order written once:
//   public API: request id -> key in query -> legacy path -> route -> version -> auth -> scope
//               -> rate limit -> handler (or the first stage's error)
//   admin:      request id -> route -> admin token -> handler

#include "http/router.hpp"
#include "http/services.hpp"
#include "http/transport.hpp"

namespace svc::http {

/// The application of the public listener.
class api_pipeline final : public exchange_handler {
public:
  explicit api_pipeline(services& svc);
  bool streams_body(const http_request& head) const override;
  void on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& peer,
                  responder done) override;
  void on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                         responder done) override;
  const router& routes() const { return routes_; }

private:
  services& svc_;
  router routes_;
};

/// The application of the admin listener.
class admin_pipeline final : public exchange_handler {
public:
  explicit admin_pipeline(services& svc);
  bool streams_body(const http_request&) const override { return false; }
  void on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& peer,
                  responder done) override;
  void on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                         responder done) override;

private:
  services& svc_;
  router routes_;
};

/// The application of the engine-callback listener: engines' calls back
/// about work svcd gave them (Cog webhooks), each authenticated by the token
/// in the URL svcd handed out. No API key or admin token works here.
class engine_callback_pipeline final : public exchange_handler {
public:
  explicit engine_callback_pipeline(services& svc);
  bool streams_body(const http_request&) const override { return false; }
  void on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& peer,
                  responder done) override;
  void on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                         responder done) override;

private:
  services& svc_;
  router routes_;
};

/// The public API's routes (`api_routes.cpp`).
std::vector<route> api_routes();

/// The admin listener's routes (`admin_routes.cpp`).
std::vector<route> admin_routes();
/// The engine-callback listener's routes (`engine_callbacks.cpp`).
std::vector<route> engine_callback_routes();

} // namespace svc::http
