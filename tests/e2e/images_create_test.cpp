// POST /v1/images end to end: 201 with Location and a held cost, polling to
// `succeeded`, the charge, and the output fetched through its signed URL with
// no key (PNG of the requested size, sha256 = record = ETag, HEAD without a
// body); records are private to their team.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_create)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Checks one downloaded output against its entry in the record's `outputs`.
void check_download(const response& r, const boost::json::value& entry, int width, int height) {
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type") == "image/png");
  auto size = png_dimensions(r.body);
  BOOST_REQUIRE_MESSAGE(size.has_value(), "no PNG signature and IHDR in " << r.body.size() << " bytes");
  BOOST_TEST(size->width == static_cast<std::uint32_t>(width));
  BOOST_TEST(size->height == static_cast<std::uint32_t>(height));
  auto sha = sha256_hex(r.body);
  BOOST_TEST(sha == json_str(entry, "sha256"));
  BOOST_TEST(r.header_or_empty("ETag") == "\"" + sha + "\"");
  BOOST_TEST(header_int(r, "Content-Length") == static_cast<std::int64_t>(r.body.size()));
  BOOST_TEST(json_int(entry, "bytes") == static_cast<std::int64_t>(r.body.size()));
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(images_create, server_fixture)

BOOST_AUTO_TEST_CASE(create_poll_and_download_the_output_without_a_key) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = image_body("a lighthouse on a cliff", 320, 256);
  body["seed"] = 42;
  auto r = create_image(c, t.write.key, body);
  BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
  auto job = r.json();
  auto id = json_str(job, "id");
  BOOST_TEST(id.rfind("img_", 0) == 0u, id);
  BOOST_TEST(r.header_or_empty("Location") == svcd.api_url() + "/v1/images/" + id);
  BOOST_TEST(json_str(job, "object") == "image");
  auto status = json_str(job, "status");
  BOOST_TEST((status == "queued" || status == "processing"), status);
  BOOST_TEST(json_str(job, "prompt") == "a lighthouse on a cliff");
  BOOST_TEST(json_int(job, "width") == 320);
  BOOST_TEST(json_int(job, "height") == 256);
  BOOST_TEST(json_int(job, "num_outputs") == 1);
  BOOST_TEST(json_int(job, "seed") == 42);
  BOOST_TEST(json_int(job, "steps") == 30);
  BOOST_TEST(json_str(job, "cost.status") == "held");
  BOOST_TEST(json_size(job, "output_urls") == 0);
  BOOST_TEST(json_is_null(job, "failure"));
  BOOST_TEST(json_is_null(job, "completed_at"));
  BOOST_TEST(parse_iso8601_ms(json_str(job, "created_at")) > 0, json_str(job, "created_at"));
  auto credits = json_int(job, "cost.credits").value_or(-1);
  BOOST_TEST(credits == 3, "one started megapixel at 3 credits (2026-09-01)");
  // Held or already charged: either way the credits are no longer available.
  auto during = get_balance(c, t.read.key);
  BOOST_TEST(during.available == 1000 - credits);
  BOOST_TEST((during.held == credits || during.held == 0), during.held);

  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  BOOST_TEST(json_str(done, "cost.status") == "charged");
  BOOST_TEST(json_int(done, "cost.credits") == credits);
  BOOST_TEST(json_int(done, "progress") == 1);
  BOOST_TEST(json_is_null(done, "failure"));
  auto completed = parse_iso8601_ms(json_str(done, "completed_at"));
  BOOST_TEST(completed >= parse_iso8601_ms(json_str(done, "started_at")));
  BOOST_TEST(parse_iso8601_ms(json_str(done, "started_at")) >= parse_iso8601_ms(json_str(done, "created_at")));
  BOOST_TEST(parse_iso8601_ms(json_str(done, "outputs_expire_at")) - completed == 3600 * 1000,
             "outputs live one hour by default");
  BOOST_REQUIRE(json_size(done, "outputs") == 1);
  BOOST_REQUIRE(json_size(done, "output_urls") == 1);
  auto entry = *json_at(done, "outputs.0");
  auto url = json_str(done, "output_urls.0");
  BOOST_TEST(json_str(entry, "url") == url);
  BOOST_TEST(url.rfind(svcd.api_url() + "/v1/outputs/" + id + "/0?exp=", 0) == 0u, url);
  BOOST_TEST(json_str(entry, "content_type") == "image/png");
  BOOST_TEST(json_int(entry, "width") == 320);
  BOOST_TEST(json_int(entry, "height") == 256);
  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == 1000 - credits);
  BOOST_TEST(after.held == 0);

  // The URL is fetched with no key at all, on a connection of its own.
  http_client anonymous{svcd.api_url()};
  auto download = anonymous.get(target_of(url));
  check_download(download, entry, 320, 256);
  BOOST_TEST(!download.header_or_empty("Cache-Control").empty());

  // HEAD: the same headers, no body; the connection stays usable.
  auto head = anonymous.request("HEAD", target_of(url));
  BOOST_TEST(head.status == 200, head.summary());
  BOOST_TEST(header_int(head, "Content-Length") == static_cast<std::int64_t>(download.body.size()));
  BOOST_TEST(head.header_or_empty("ETag") == download.header_or_empty("ETag"));
  BOOST_TEST(head.header_or_empty("Content-Type") == "image/png");
  BOOST_TEST(head.body.empty());
  BOOST_TEST(anonymous.get(target_of(url)).body == download.body, "the connection is still in step after HEAD");
}

BOOST_AUTO_TEST_CASE(head_sends_no_body_bytes_on_the_wire) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto target = target_of(json_str(done, "output_urls.0"));

  raw_connection raw{svcd.api_url()};
  BOOST_REQUIRE(raw.send("HEAD " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  auto got = raw.read_until_close(10s);
  BOOST_TEST(got.closed);
  auto end = got.data.find("\r\n\r\n");
  BOOST_REQUIRE_MESSAGE(end != std::string::npos, got.data);
  BOOST_TEST(got.data.rfind("HTTP/1.1 200", 0) == 0u, got.data.substr(0, 80));
  BOOST_TEST(got.data.size() == end + 4, "bytes after the header block: " << got.data.size() - end - 4);
  BOOST_TEST(got.data.find("Content-Length: " + std::to_string(*json_int(done, "outputs.0.bytes")) + "\r\n")
               != std::string::npos,
             got.data);
}

BOOST_AUTO_TEST_CASE(every_output_of_a_multi_output_job_downloads) {
  auto t = create_team_with_keys();
  auto c = api();
  auto body = image_body("two views of a harbour", 256, 384);
  body["num_outputs"] = 2;
  auto created = create_image_ok(c, t.write.key, body);
  BOOST_TEST(json_int(created, "cost.credits") == 6, "two outputs of one started megapixel");
  auto done = wait_terminal(c, t.read.key, json_str(created, "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  BOOST_REQUIRE(json_size(done, "outputs") == 2);
  BOOST_REQUIRE(json_size(done, "output_urls") == 2);
  BOOST_TEST(json_str(done, "output_urls.0") != json_str(done, "output_urls.1"));
  http_client anonymous{svcd.api_url()};
  for (int i = 0; i < 2; ++i) {
    BOOST_TEST_CONTEXT("output " << i) {
      auto url = json_str(done, "output_urls." + std::to_string(i));
      BOOST_TEST(url.find("/v1/outputs/" + json_str(done, "id") + "/" + std::to_string(i) + "?") != std::string::npos,
                 url);
      check_download(anonymous.get(target_of(url)), *json_at(done, "outputs." + std::to_string(i)), 256, 384);
    }
  }
}

BOOST_AUTO_TEST_CASE(records_are_private_to_their_team) {
  auto mine = create_team_with_keys();
  auto other = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, mine.write.key, image_body()), "id");
  BOOST_TEST(json_str(get_image(c, mine.read.key, id), "id") == id, "read scope reads");

  auto foreign = c.get("/v1/images/" + id, with_key(other.read.key));
  BOOST_TEST(is_error(foreign, 404, "resource_not_found"), foreign.summary());
  BOOST_TEST(list_image_ids(c, other.read.key).empty());
  for (std::string missing : {"img_00000000000000000000000000", "img_nope", "vid_00000000000000000000000000"}) {
    auto r = c.get("/v1/images/" + missing, with_key(mine.read.key));
    BOOST_TEST(is_error(r, 404, "resource_not_found"), missing << " -> " << r.summary());
  }
  auto read_only = create_image(c, mine.read.key, image_body());
  BOOST_TEST(is_error(read_only, 403, "missing_scope"), read_only.summary());
  BOOST_TEST(list_image_ids(c, mine.read.key).size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
