#include "bench/load/command_line.hpp"

#include <iostream>

#include "bench/load/format.hpp"

namespace svc::bench {
namespace {

// Shell-quotes `s` when it needs it, so a printed command can be pasted back.
std::string shell_quoted(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.:,@")
                      == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return out + "'";
}

// ` --name value` for one option; "" for a switch that is off or an empty
// text (both mean the option was not given).
std::string option_text(const std::string& name, const boost::any& v) {
  if (auto* b = boost::any_cast<bool>(&v))
    return *b ? " --" + name : std::string{};
  std::string value;
  if (auto* s = boost::any_cast<std::string>(&v))
    value = *s;
  else if (auto* i = boost::any_cast<int>(&v))
    value = std::to_string(*i);
  else if (auto* z = boost::any_cast<std::size_t>(&v))
    value = std::to_string(*z);
  else if (auto* d = boost::any_cast<double>(&v))
    value = format("%g", *d);
  return value.empty() ? std::string{} : " --" + name + " " + shell_quoted(value);
}

} // namespace

void add_common(po::options_description& d, common_args& a) {
  d.add_options()("help,h", "this text")("url", po::value(&a.url)->required(),
                                         "svcd API base URL, http://HOST:PORT (loopback only unless --allow-remote)")(
    "keys", po::value(&a.keys_file)->required(), "file with one API key per line (one team each; write scope)")(
    "width", po::value(&a.width)->default_value(256), "image width of the creates")(
    "height", po::value(&a.height)->default_value(256), "image height of the creates")(
    "prompt", po::value(&a.prompt)->default_value("a lighthouse at dusk"), "image prompt of the creates");
}

void add_allow_remote(po::options_description& d, common_args& a) {
  d.add_options()("allow-remote", po::bool_switch(&a.allow_remote),
                  "let --url name a host other than this one (a load test of a svcd you run elsewhere)");
}

bool parse(int argc, char** argv, const po::options_description& d, po::variables_map& vm, int& status) {
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) {
      std::cout << "usage: svc-bench " << argv[0] << " [options]\n" << d << "\n";
      status = 0;
      return false;
    }
    po::notify(vm);
    return true;
  } catch (const po::error& e) {
    std::cerr << "svc-bench " << argv[0] << ": " << e.what() << " (svc-bench " << argv[0]
              << " --help lists the options)\n";
    status = 2;
    return false;
  }
}

int refuse(const std::string& why) {
  std::cerr << "svc-bench: " << why << "\n";
  return 2;
}

bool load_target(const common_args& a, target& server, std::vector<std::string>& keys, image_spec& image) {
  std::string error;
  auto t = parse_target_url(a.url, a.allow_remote, error);
  if (t)
    keys = read_keys(a.keys_file, error);
  if (!t || keys.empty() || a.width <= 0 || a.height <= 0) {
    std::cerr << "svc-bench: " << (error.empty() ? "--width and --height must be positive" : error) << "\n";
    return false;
  }
  server = *t;
  image = {a.prompt, a.width, a.height};
  return true;
}

bool read_duration(const std::string& text, const char* name, core::duration& out) {
  auto d = core::parse_duration(text);
  if (!d)
    std::cerr << "svc-bench: " << name << " '" << text << "' is not a duration (250ms, 10s, 2m)\n";
  else
    out = *d;
  return d.has_value();
}

std::string reproduce_command(const char* argv0, const char* scenario, const po::variables_map& vm) {
  auto out = shell_quoted(argv0) + " " + scenario;
  for (auto& [name, value] : vm)
    if (name != "help")
      out += option_text(name, value.value());
  return out;
}

} // namespace svc::bench
