#pragma once
// Image jobs through the public API for the e2e suites: create bodies,
// create, poll to a terminal status with a deadline, and read the team's
// balance and image list.

#include "support/http_client.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// A valid create body: `prompt`, and a small size so renders are quick.
boost::json::object image_body(std::string prompt = "a plain grey box", int width = 256, int height = 256);

/// POST /v1/images with `body` (serialised) and `key`, plus `more` headers.
response create_image(http_client& c, const std::string& key, const boost::json::value& body, header_map more = {});

/// Creates and returns the record; throws std::runtime_error unless 201.
boost::json::value create_image_ok(http_client& c, const std::string& key, const boost::json::value& body,
                                   header_map more = {});

/// GET /v1/images/{id}; the record, or the error body.
boost::json::value get_image(http_client& c, const std::string& key, const std::string& id);

/// Whether `status` is one of the five terminal image statuses.
bool is_terminal_status(std::string_view status);

/// Polls GET /v1/images/{id} every 20 ms until `done(record)` holds or
/// `timeout` passes; returns the last record read.
boost::json::value poll_image(http_client& c, const std::string& key, const std::string& id,
                              const std::function<bool(const boost::json::value&)>& done,
                              std::chrono::milliseconds timeout);

/// Polls until the status is terminal; returns the last record (still
/// non-terminal when the deadline passed, which the caller's check reports).
boost::json::value wait_terminal(http_client& c, const std::string& key, const std::string& id,
                                 std::chrono::milliseconds timeout = std::chrono::seconds{60});

/// Polls until the status is `status` (or terminal); returns the last record.
boost::json::value wait_status(http_client& c, const std::string& key, const std::string& id,
                               std::string_view status, std::chrono::milliseconds timeout = std::chrono::seconds{30});

/// The team's balance; -1 fields when GET /v1/balance did not answer 200.
struct balance_view {
  std::int64_t available = -1; ///< credits free to spend
  std::int64_t held = -1;      ///< credits held by unfinished jobs
};

/// GET /v1/balance.
balance_view get_balance(http_client& c, const std::string& key);

/// Ids of the team's images (GET /v1/images?limit=100 and `query`), newest first.
std::vector<std::string> list_image_ids(http_client& c, const std::string& key, const std::string& query = "");

/// The path and query of an absolute URL (`http://h:p/v1/x?y` -> `/v1/x?y`).
std::string target_of(const std::string& url);

/// Today's UTC date (`YYYY-MM-DD`), shifted by `days`.
std::string utc_date(int days = 0);

} // namespace svc::e2e
