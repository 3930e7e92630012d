// POST /v1/files, GET /v1/files/{id}, GET /v1/files against a real svcd:
// PNG, JPEG and WebP are sniffed whatever the part says, and echoed with
// their size, sha256 and dimensions; anything else is 415; over 20 MiB is
// 413 (Content-Length at once, chunked at the limit); broken or truncated
// multipart is 400; another team's file is 404; lists page newest first;
// files expire (record 404, bytes deleted); an uploaded file is accepted as
// a generation's init_image.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <boost/json/serialize.hpp>

#include "support/contract_guard.hpp"
#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_files)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t limit = 20 * 1024 * 1024;

struct short_file_ttl : server_fixture {
  short_file_ttl() : server_fixture({"--file-ttl", "2s"}) {}
};

struct small_uploads : server_fixture {
  small_uploads() : server_fixture({"--max-upload-pixels", "3000"}) {}
};

// tiny.png with its IHDR declaring another size: the sniffer and the
// decoder's limits read the declared size, as a decompression bomb would set it.
std::string png_declaring(std::uint32_t width, std::uint32_t height) {
  auto bytes = test_image("tiny.png");
  for (int i = 0; i < 4; ++i) {
    bytes[16 + i] = static_cast<char>(width >> (24 - 8 * i));
    bytes[20 + i] = static_cast<char>(height >> (24 - 8 * i));
  }
  return bytes;
}

void expect_too_many_pixels(http_client& c, const std::string& key, const std::string& bytes) {
  auto r = upload_file(c, key, bytes, "init_image");
  BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
  BOOST_TEST(json_str(r.json(), "error.param") == "file");
}

struct one_upload_at_a_time : server_fixture {
  one_upload_at_a_time() : server_fixture({"--max-uploads", "1"}) {}
};

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The request head of an upload on a raw connection (the body follows).
std::string upload_head(const std::string& key, const std::string& framing) {
  return "POST /v1/files HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + key
         + "\r\nContent-Type: multipart/form-data; boundary=" + test_boundary + "\r\n" + framing + "\r\n";
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(files, server_fixture)

// --max-upload-pixels (default 4096x4096) and the decoder's 8192 a side bound
// what an upload may declare; nothing is stored past them.
BOOST_AUTO_TEST_CASE(uploads_over_the_pixel_limit_are_refused) {
  auto t = create_team_with_keys();
  auto c = api();
  expect_too_many_pixels(c, t.write.key, png_declaring(4097, 4096));
  expect_too_many_pixels(c, t.write.key, png_declaring(65535, 65535));
  expect_too_many_pixels(c, t.write.key, png_declaring(8193, 2));
  auto at_limit = upload_file(c, t.write.key, png_declaring(4096, 4096), "init_image");
  BOOST_TEST(at_limit.status == 201, at_limit.summary());
  BOOST_TEST(json_size(c.get("/v1/files", with_key(t.read.key)).json(), "data") == 1);
}

BOOST_FIXTURE_TEST_CASE(the_pixel_limit_is_configurable, small_uploads) {
  auto t = create_team_with_keys();
  auto c = api();
  expect_too_many_pixels(c, t.write.key, test_image("tiny.png")); // 64x48 = 3072
  auto small = upload_file(c, t.write.key, png_declaring(50, 60), "init_image");
  BOOST_TEST(small.status == 201, small.summary());
}

BOOST_AUTO_TEST_CASE(png_jpeg_and_webp_are_sniffed_and_echoed) {
  auto t = create_team_with_keys();
  auto c = api();
  struct sample {
    std::string name, type;
    int width, height;
  };
  for (auto& s : std::vector<sample>{{"tiny.png", "image/png", 64, 48},
                                     {"tiny.jpg", "image/jpeg", 80, 60},
                                     {"tiny.webp", "image/webp", 72, 40},
                                     {"tiny_lossless.webp", "image/webp", 33, 17},
                                     {"tiny_alpha.webp", "image/webp", 20, 10}}) {
    BOOST_TEST_CONTEXT(s.name) {
      auto bytes = test_image(s.name);
      auto r = upload_file(c, t.write.key, bytes, "mask"); // the part claims text/plain
      BOOST_TEST_REQUIRE(r.status == 201, r.summary());
      auto f = r.json();
      auto id = json_str(f, "id");
      BOOST_TEST(id.rfind("file_", 0) == 0u);
      BOOST_TEST(r.header_or_empty("Location") == svcd.api_url() + "/v1/files/" + id);
      BOOST_TEST(r.header_or_empty("X-RateLimit-Limit") == "60"); // files_post
      BOOST_TEST(json_str(f, "object") == "file");
      BOOST_TEST(json_str(f, "purpose") == "mask");
      BOOST_TEST(json_int(f, "bytes") == std::optional<std::int64_t>(static_cast<std::int64_t>(bytes.size())));
      BOOST_TEST(json_str(f, "content_type") == s.type);
      BOOST_TEST(json_int(f, "width") == std::optional<std::int64_t>(s.width));
      BOOST_TEST(json_int(f, "height") == std::optional<std::int64_t>(s.height));
      BOOST_TEST(json_str(f, "sha256") == sha256_hex(bytes));
      auto created = parse_iso8601_ms(json_str(f, "created_at"));
      BOOST_TEST(parse_iso8601_ms(json_str(f, "expires_at")) - created == 24 * 3600 * 1000);
      BOOST_TEST(f.as_object().size() == 10u);
      // The read shows the same record; the bytes are on disk as sent.
      auto got = c.get("/v1/files/" + id, with_key(t.read.key));
      BOOST_TEST(got.status == 200, got.summary());
      BOOST_TEST(boost::json::serialize(got.json()) == boost::json::serialize(f));
      BOOST_TEST(file_exists(svcd.data_dir() + "/blobs/files/" + id));
    }
  }
}

BOOST_AUTO_TEST_CASE(other_content_is_415) {
  auto t = create_team_with_keys();
  auto c = api();
  for (auto& bytes : {test_image("tiny.gif"), std::string{"just some text\n"}, std::string{}}) {
    auto r = upload_file(c, t.write.key, bytes);
    BOOST_TEST(is_error(r, 415, "unsupported_media_type"), r.summary());
  }
  // Not multipart at all, and multipart without a usable boundary.
  auto json = c.request("POST", "/v1/files", with_key(t.write.key), R"({"file": "x"})");
  BOOST_TEST(is_error(json, 415, "unsupported_media_type"), json.summary());
  auto no_boundary = c.request("POST", "/v1/files", with_key(t.write.key, {{"Content-Type", "multipart/form-data"}}),
                               multipart_body({{"purpose", "mask", {}, {}}}));
  BOOST_TEST(is_error(no_boundary, 400, "invalid_body"), no_boundary.summary());
  // A read key may look, not upload.
  auto read_only = upload_file(c, t.read.key, test_image("tiny.png"));
  BOOST_TEST(is_error(read_only, 403, "missing_scope"), read_only.summary());
}

BOOST_AUTO_TEST_CASE(twenty_mebibytes_is_the_limit) {
  auto t = create_team_with_keys();
  auto c = api();
  // Exactly 20 MiB of body, framing included: accepted.
  auto png = test_image("tiny.png");
  auto framing = multipart_body({{"file", "", {}, {}}, {"purpose", "init_image", {}, {}}}).size();
  auto padded = png + std::string(limit - framing - png.size(), '\0');
  auto body = multipart_body({{"file", padded, {}, {}}, {"purpose", "init_image", {}, {}}});
  BOOST_REQUIRE_EQUAL(body.size(), limit);
  auto exact = c.request("POST", "/v1/files", form_headers(t.write.key), body);
  BOOST_TEST(exact.status == 201, exact.summary());
  BOOST_TEST(json_int(exact.json(), "bytes") == std::optional<std::int64_t>(static_cast<std::int64_t>(padded.size())));
  BOOST_TEST(json_str(exact.json(), "sha256") == sha256_hex(padded));

  // A Content-Length over it: 413 at once, before any body byte is sent.
  raw_connection declared{svcd.api_url()};
  BOOST_REQUIRE(declared.send(upload_head(t.write.key, "Content-Length: " + std::to_string(limit + 1) + "\r\n")));
  auto got = declared.read_until_close(10s);
  BOOST_TEST(starts_with(got.data, "HTTP/1.1 413"), got.data.substr(0, 200));
  BOOST_TEST(got.data.find("\"body_too_large\"") != std::string::npos);
  BOOST_TEST(got.data.find("20971520") != std::string::npos);
  check_raw_answer_against_contract("POST", "/v1/files", got.data);

  // A chunked body is cut off once it passes 20 MiB: 21 MiB in 1 MiB chunks.
  raw_connection chunked{svcd.api_url()};
  BOOST_REQUIRE(chunked.send(upload_head(t.write.key, "Transfer-Encoding: chunked\r\n")));
  auto head = "--" + test_boundary + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n" + png;
  std::string mib(1024 * 1024, 'x');
  std::ostringstream size;
  size << std::hex << head.size();
  chunked.send(size.str() + "\r\n" + head + "\r\n");
  for (int i = 0; i < 21 && !chunked.closed(); ++i)
    if (!chunked.send("100000\r\n" + mib + "\r\n"))
      break;
  auto cut = chunked.read_until_close(10s);
  BOOST_TEST(starts_with(cut.data, "HTTP/1.1 413"), cut.data.substr(0, 200));
  BOOST_TEST(cut.closed);
  check_raw_answer_against_contract("POST", "/v1/files", cut.data);
  check_still_serving("/v1/files", t.read.key);
}

BOOST_AUTO_TEST_CASE(broken_forms_are_400) {
  auto t = create_team_with_keys();
  auto c = api();
  auto png = test_image("tiny.png");
  auto post = [&](const std::string& body) { return c.request("POST", "/v1/files", form_headers(t.write.key), body); };
  // Truncated: the closing boundary never comes (Content-Length matches what is sent).
  auto whole = multipart_body({{"purpose", "init_image", {}, {}}, {"file", png, {}, {}}});
  for (auto cut : {whole.size() - 10, whole.size() / 2, std::size_t{5}}) {
    auto r = post(whole.substr(0, cut));
    BOOST_TEST(is_error(r, 400, "invalid_body"), cut << ": " << r.summary());
  }
  auto open = post(multipart_body({{"purpose", "init_image", {}, {}}, {"file", png, {}, {}}}, false));
  BOOST_TEST(is_error(open, 400, "invalid_body"), open.summary());
  BOOST_TEST(json_str(open.json(), "error.message").find("closing boundary") != std::string::npos);
  struct refusal {
    std::vector<form_part> parts;
    std::string code, param;
  };
  for (auto& x : std::vector<refusal>{
         {{{"file", png, {}, {}}, {"purpose", "mask", {}, {}}, {"model", "x", {}, {}}}, "unknown_parameter", "model"},
         {{{"file", png, {}, {}}}, "invalid_parameter", "purpose"},
         {{{"purpose", "mask", {}, {}}}, "invalid_parameter", "file"},
         {{{"file", png, {}, {}}, {"purpose", "thumbnail", {}, {}}}, "invalid_parameter", "purpose"},
         {{{"file", png, {}, {}}, {"file", png, {}, {}}, {"purpose", "mask", {}, {}}}, "invalid_parameter", "file"}}) {
    auto r = post(multipart_body(x.parts));
    BOOST_TEST(is_error(r, 400, x.code), r.summary());
    BOOST_TEST(json_str(r.json(), "error.param") == x.param, r.summary());
  }
  check_still_serving("/v1/files", t.read.key);
}

BOOST_AUTO_TEST_CASE(expect_100_continue_is_answered_before_the_body) {
  auto t = create_team_with_keys();
  auto body = multipart_body({{"file", test_image("tiny.jpg"), {}, {}}, {"purpose", "init_image", {}, {}}});
  raw_connection conn{svcd.api_url()};
  BOOST_REQUIRE(conn.send(upload_head(t.write.key, "Expect: 100-continue\r\nContent-Length: "
                                                     + std::to_string(body.size()) + "\r\n")));
  auto interim = conn.read_some(5s);
  BOOST_TEST(starts_with(interim.data, "HTTP/1.1 100 Continue\r\n\r\n"), interim.data);
  BOOST_REQUIRE(conn.send(body));
  auto rest = interim.data.substr(std::min(interim.data.size(), std::string{"HTTP/1.1 100 Continue\r\n\r\n"}.size()));
  BOOST_TEST(wait_until([&] { return (rest += conn.read_some(100ms).data).find("\"object\":\"file\"") != std::string::npos; },
                        5s));
  BOOST_TEST(starts_with(rest, "HTTP/1.1 201"), rest.substr(0, 200));
}

BOOST_AUTO_TEST_CASE(another_teams_file_is_404) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto c = api();
  auto f = upload_file_ok(c, a.write.key, test_image("tiny.png"));
  auto id = json_str(f, "id");
  auto other = c.get("/v1/files/" + id, with_key(b.read.key));
  BOOST_TEST(is_error(other, 404, "resource_not_found"), other.summary());
  BOOST_TEST(json_size(c.get("/v1/files", with_key(b.read.key)).json(), "data") == 0);
  for (auto bad : {std::string{"file_00000000000000000000000000"}, std::string{"img_00000000000000000000000000"},
                   std::string{"nope"}}) {
    auto r = c.get("/v1/files/" + bad, with_key(a.read.key));
    BOOST_TEST(is_error(r, 404, "resource_not_found"), bad << ": " << r.summary());
  }
}

BOOST_AUTO_TEST_CASE(lists_page_newest_first) {
  auto t = create_team_with_keys();
  auto c = api();
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.insert(ids.begin(), json_str(upload_file_ok(c, t.write.key, test_image("tiny.webp")), "id"));
  std::vector<std::string> seen;
  std::string cursor;
  for (int page = 0; page < 3; ++page) {
    auto r = c.get("/v1/files?limit=2" + (cursor.empty() ? "" : "&starting_after=" + cursor), with_key(t.read.key));
    BOOST_TEST_REQUIRE(r.status == 200, r.summary());
    auto v = r.json();
    BOOST_TEST(json_str(v, "object") == "list");
    for (auto& item : v.at("data").as_array())
      seen.push_back(json_str(item, "id"));
    BOOST_TEST(json_bool(v, "has_more") == std::optional<bool>(page < 2));
    cursor = page < 2 ? json_str(v, "next_cursor") : "";
    if (page == 2)
      BOOST_TEST(json_is_null(v, "next_cursor"));
  }
  BOOST_TEST(seen == ids, boost::test_tools::per_element());
  BOOST_TEST(json_size(c.get("/v1/files", with_key(t.read.key)).json(), "data") == 5);
  for (auto query : {"limit=0", "limit=101", "starting_after=img_00000000000000000000000000"})
    BOOST_TEST(is_error(c.get(std::string{"/v1/files?"} + query, with_key(t.read.key)), 400, "invalid_parameter"), query);
  BOOST_TEST(is_error(c.get("/v1/files?purpose=mask", with_key(t.read.key)), 400, "unknown_parameter"));
}

BOOST_AUTO_TEST_CASE(an_uploaded_file_is_an_init_image) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto c = api();
  auto init = json_str(upload_file_ok(c, a.write.key, test_image("tiny.png"), "init_image"), "id");
  auto mask = json_str(upload_file_ok(c, a.write.key, test_image("tiny.png"), "mask"), "id");
  auto body = image_body("a lighthouse from a photo");
  body["init_image"] = init;
  auto job = create_image_ok(c, a.write.key, body);
  BOOST_TEST(json_str(job, "init_image") == init);
  auto done = wait_terminal(c, a.write.key, json_str(job, "id"));
  BOOST_TEST(json_str(done, "status") == "succeeded", boost::json::serialize(done));
  // A mask, another team's file and an unknown id are refused.
  for (auto& [key, id] : std::vector<std::pair<std::string, std::string>>{
         {a.write.key, mask}, {b.write.key, init}, {a.write.key, "file_00000000000000000000000000"}}) {
    auto refused = body;
    refused["init_image"] = id;
    auto r = create_image(c, key, refused);
    BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
    BOOST_TEST(json_str(r.json(), "error.param") == "init_image");
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(an_expired_file_is_404_and_its_bytes_are_deleted, short_file_ttl) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(upload_file_ok(c, t.write.key, test_image("tiny.jpg")), "id");
  auto blob = svcd.data_dir() + "/blobs/files/" + id;
  BOOST_TEST(file_exists(blob));
  BOOST_TEST(wait_until([&] { return c.get("/v1/files/" + id, with_key(t.read.key)).status == 404; }, 10s, 50ms));
  BOOST_TEST(wait_until([&] { return !file_exists(blob); }, 10s, 50ms), blob << " not deleted");
  BOOST_TEST(json_size(c.get("/v1/files", with_key(t.read.key)).json(), "data") == 0);
  auto body = image_body();
  body["init_image"] = id;
  BOOST_TEST(is_error(create_image(c, t.write.key, body), 400, "invalid_parameter"));
}

// A half-sent upload holds its slot without holding up anyone else; when
// its client vanishes the slot is free again.
BOOST_FIXTURE_TEST_CASE(uploads_are_bounded_and_a_vanished_client_frees_its_slot, one_upload_at_a_time) {
  auto t = create_team_with_keys();
  auto c = api();
  auto body = multipart_body({{"file", test_image("tiny.png") + std::string(100000, '\0'), {}, {}},
                              {"purpose", "init_image", {}, {}}});
  {
    raw_connection stalled{svcd.api_url()};
    BOOST_REQUIRE(stalled.send(upload_head(t.write.key, "Expect: 100-continue\r\nContent-Length: "
                                                          + std::to_string(body.size()) + "\r\n")));
    // 100 Continue comes once the handler holds the slot and reads the body.
    BOOST_REQUIRE(starts_with(stalled.read_some(5s).data, "HTTP/1.1 100 Continue"));
    BOOST_REQUIRE(stalled.send(body.substr(0, body.size() / 2)));
    auto read = c.get("/v1/files", with_key(t.read.key));
    BOOST_TEST(read.status == 200, read.summary());
    auto busy = upload_file(c, t.write.key, test_image("tiny.png"));
    BOOST_TEST(is_error(busy, 503, "unavailable"), busy.summary());
    BOOST_TEST(busy.header_or_empty("Retry-After") == "1");
  } // the stalled client disconnects mid-body
  c.close();
  BOOST_TEST(wait_until([&] { return upload_file(c, t.write.key, test_image("tiny.png")).status == 201; }, 5s, 50ms));
}

BOOST_AUTO_TEST_SUITE_END()
