#pragma once
// How an engine calls svcd back (a Cog prediction's webhooks): the URL of
// svcd's engine-callback listener, the key of each call's token, and the
// inbox the calls are delivered to.

#include <string>

#include "core/callback_inbox.hpp"

namespace svc::providers {

struct engine_callbacks {
  std::string base_url;               ///< `http://host:port` of the engine-callback listener
  std::string key;                    ///< keys each id's token (core::callback_token)
  core::callback_inbox* inbox = nullptr; ///< not owned; null: no engine can call back

  /// Where the engine posts the webhooks of Cog prediction `id`.
  std::string cog_webhook(const std::string& id) const {
    return base_url + "/cog/predictions/" + id + "?token=" + core::callback_token(key, id);
  }
};

} // namespace svc::providers
