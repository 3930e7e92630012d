// svc-receiver: a webhook receiver for scripts and the demo. Makes (or reuses)
// a test CA in --dir, listens on 127.0.0.1, writes DIR/receiver.json with its
// URL, answers 200 to every POST and checks each delivery's
// Svc-Webhook-Signature against the secret in --secret-file. Exits 0 after
// --count verified deliveries, 1 when --timeout seconds pass first (with no
// --count it runs until the timeout, then exits 0, or until killed).
//
//   svc-receiver --dir DIR [--secret-file FILE] [--count N] [--timeout SECONDS]

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

#include "bench/receiver/https_receiver.hpp"
#include "bench/receiver/test_ca.hpp"
#include "schema/webhook_signature.hpp"

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using svc::receiver::received_request;

// JSON with one member or element per line, two spaces per level.
void pretty(std::ostream& out, const json::value& v, int indent) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent), ' ');
  if (v.is_object() && !v.get_object().empty()) {
    out << "{\n";
    bool first = true;
    for (auto& [k, member] : v.get_object()) {
      out << (first ? "" : ",\n") << pad << json::serialize(json::string(k)) << ": ";
      pretty(out, member, indent + 2);
      first = false;
    }
    out << "\n" << close_pad << "}";
  } else if (v.is_array() && !v.get_array().empty()) {
    out << "[\n";
    bool first = true;
    for (auto& e : v.get_array()) {
      out << (first ? "" : ",\n") << pad;
      pretty(out, e, indent + 2);
      first = false;
    }
    out << "\n" << close_pad << "]";
  } else {
    out << json::serialize(v);
  }
}

std::string pretty_body(const std::string& body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec)
    return body;
  std::ostringstream out;
  pretty(out, v, 0);
  return out.str();
}

// The secret as the file holds it now (trailing whitespace dropped); empty if absent.
std::string read_secret(const std::string& path) {
  if (path.empty())
    return {};
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  return s;
}

const char* reason(svc::schema::signature_check c) {
  switch (c) {
  case svc::schema::signature_check::ok: return "ok";
  case svc::schema::signature_check::malformed: return "malformed signature header";
  case svc::schema::signature_check::stale: return "timestamp outside the tolerance";
  case svc::schema::signature_check::mismatch: return "signature does not match the secret";
  }
  return "unknown";
}

void write_atomically(const fs::path& path, const std::string& text) {
  auto tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
      throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

} // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  std::string dir, secret_file;
  std::size_t count = 0;
  double timeout_s = 0;
  po::options_description desc("svc-receiver options");
  desc.add_options()("help", "show this help")("dir", po::value(&dir)->required(), "directory for the CA and receiver.json")(
      "secret-file", po::value(&secret_file), "file holding the endpoint's whsec_ secret")(
      "count", po::value(&count), "exit 0 after this many verified deliveries (0: never)")(
      "timeout", po::value(&timeout_s), "exit 1 after this many seconds (0: never)");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "svc-receiver: " << e.what() << "\n" << desc << "\n";
    return 2;
  }

  try {
    auto pki = svc::receiver::load_or_make_test_pki(dir);
    svc::receiver::https_receiver receiver({pki.server});

    std::mutex mutex;
    std::condition_variable cv;
    std::size_t verified = 0;
    receiver.set_handler([&](const received_request& r) {
      svc::receiver::reply answer; // 200, empty
      if (r.method != "POST") {
        answer.status = 405;
        return answer;
      }
      auto type = r.header("Svc-Event-Type").value_or("-");
      auto id = r.header("Svc-Event-Id").value_or("-");
      auto secret = read_secret(secret_file);
      auto sig = r.header("Svc-Webhook-Signature");
      std::string why;
      if (secret.empty())
        why = "no secret yet (" + (secret_file.empty() ? std::string("no --secret-file") : secret_file) + ")";
      else if (!sig)
        why = "no Svc-Webhook-Signature header";
      else {
        auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
        auto check = svc::schema::verify_signature_header(*sig, r.body, {secret}, now.count());
        if (check != svc::schema::signature_check::ok)
          why = reason(check);
      }
      std::lock_guard lock(mutex);
      if (why.empty()) {
        std::cout << "verified " << type << " " << id << "\n" << pretty_body(r.body) << std::endl;
        ++verified;
        cv.notify_all();
      } else {
        std::cout << "UNVERIFIED " << type << " " << id << ": " << why << std::endl;
      }
      return answer;
    });

    write_atomically(fs::path(dir) / "receiver.json",
                     json::serialize(json::object{{"url", receiver.url("/hooks")}}) + "\n");

    bool reached = true;
    std::size_t seen = 0;
    {
      std::unique_lock lock(mutex);
      auto enough = [&] { return count > 0 && verified >= count; };
      if (timeout_s > 0)
        reached = cv.wait_for(lock, std::chrono::duration<double>(timeout_s), enough) || count == 0;
      else
        cv.wait(lock, enough);
      seen = verified;
    }
    // Let the last answers leave before closing.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{2};
    while (receiver.answered() < receiver.request_count() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds{5});
    receiver.stop();
    if (!reached)
      std::cerr << "svc-receiver: timed out with " << seen << " of " << count << " deliveries verified\n";
    return reached ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "svc-receiver: " << e.what() << "\n";
    return 2;
  }
}
