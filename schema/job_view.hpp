#pragma once
// The wire form of a job, exactly as `GET /v1/images/{id}` answers it and as
// events carry it: as a tree, or as text written straight into a body. Output
// URLs are signed here, from the stored expiry, so every read of the same
// record shows the same URLs.

#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "schema/job_record.hpp"

namespace svc::schema {

/// What signing a job's output URLs needs.
struct output_signer {
  std::string_view base_url; ///< `http://host:port`, no trailing slash
  std::string_view secret;   ///< the server's URL-signing secret
};

/// The signed URLs of a job's outputs (index i names output i): empty until
/// it succeeded, the same URLs every read of the same record shows.
std::vector<std::string> output_urls(const job_record& r, const output_signer& signer);

/// The image or video record of decisions.md, with `output_urls` and `outputs`.
boost::json::value job_view(const job_record& r, const output_signer& signer);

/// The same view as JSON text appended to `out`, with no tree in between:
/// byte for byte `boost::json::serialize(job_view(r, signer))` (the answer of a job read).
void write_job_view(std::string& out, const job_record& r, const output_signer& signer);

} // namespace svc::schema
