#include "support/cluster_fixture.hpp"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/crypto.hpp"
#include "core/shard.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/wait.hpp"
#include "bench/receiver/test_ca.hpp"

namespace svc::e2e {
namespace json = boost::json;
using namespace std::chrono_literals;

cluster_fixture::cluster_fixture(int count, std::vector<std::string> extra)
  : pki{receiver::make_test_pki()},
    pki_dir{make_temp_dir("svc-e2e-cluster-pki-")},
    admin_token{core::random_hex(32)},
    extra_args{std::move(extra)} {
  std::signal(SIGPIPE, SIG_IGN); // a node killed mid-answer must not kill the test
  receiver::write_test_pki(pki, pki_dir);
  for (int i = 1; i <= count; ++i)
    ids.push_back("n" + std::to_string(i));
  for (auto& id : ids)
    issue_identity(id);
  for (auto& id : ids)
    nodes.push_back(start_member(node_args(id, pki_dir)));
  wait_formed();
}

cluster_fixture::~cluster_fixture() {
  if (current_case_failed())
    for (std::size_t i = 0; i < nodes.size(); ++i)
      std::cerr << "--- log tail of node " << ids[i] << ":\n" << nodes[i]->log_tail(60) << "\n";
  nodes.clear();
  std::error_code ignored;
  std::filesystem::remove_all(pki_dir, ignored);
}

std::vector<std::string> cluster_fixture::node_args(const std::string& id, const std::string& dir) const {
  std::string bootstrap;
  for (auto& n : ids)
    bootstrap += (bootstrap.empty() ? "" : ",") + n;
  auto& login = etcd.credentials();
  std::vector<std::string> args{
    "--etcd", etcd.endpoint(), "--etcd-ca", login.ca, "--etcd-cert", login.cert, "--etcd-key", login.key,
    "--etcd-user", login.user, "--etcd-password-file", login.password_file, "--node-id", id, "--cluster-listen", "127.0.0.1:0",
    "--cluster-ca", dir + "/ca.pem", "--cluster-cert", dir + "/" + id + ".pem", "--cluster-key", dir + "/" + id + ".key",
    "--cluster-bootstrap", bootstrap, "--cluster-heartbeat", "200ms", "--cluster-timeout", "1s",
    "--cluster-lease", "2s"};
  // Short, so a test of a lost owner is quick; the crash campaign gives its own.
  if (std::find(extra_args.begin(), extra_args.end(), "--request-deadline") == extra_args.end())
    args.insert(args.end(), {"--request-deadline", "3s"});
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return args;
}

void cluster_fixture::issue_identity(const std::string& id) const {
  auto identity = receiver::make_node_identity(pki.ca, id);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream out{pki_dir + "/" + name};
    out << text;
    if (!out.flush())
      throw std::runtime_error("cannot write " + pki_dir + "/" + name);
  };
  write(id + ".pem", identity.cert);
  write(id + ".key", identity.key);
  std::filesystem::permissions(pki_dir + "/" + id + ".key",
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

std::unique_ptr<svcd_process> cluster_fixture::start_member(std::vector<std::string> args) const {
  auto dir = make_temp_dir("svc-e2e-");
  auto path = dir + "/admin.token";
  {
    std::ofstream out{path};
    out << admin_token << "\n";
    if (!out.flush())
      throw std::runtime_error("cannot write " + path);
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  return std::make_unique<svcd_process>(existing_data_dir{dir}, std::move(args));
}

json::value cluster_fixture::status(std::size_t i) const {
  auto r = admin(i).get("/admin/cluster", admin_auth(i));
  if (r.status != 200)
    throw std::runtime_error("GET /admin/cluster of " + ids[i] + ": " + r.summary());
  return r.json();
}

void cluster_fixture::wait_formed() const {
  std::string last;
  bool formed = wait_until(
    [&] {
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!nodes[i]->running())
          continue;
        auto s = status(i);
        last = ids[i] + ": " + json::serialize(s);
        if (json_int(s, "map_revision").value_or(0) <= 0)
          return false;
        std::size_t up = 0;
        for (auto& p : s.at("peers").as_array())
          up += p.at("state").as_string() == "up";
        std::size_t others = 0;
        for (std::size_t j = 0; j < nodes.size(); ++j)
          others += j != i && nodes[j]->running();
        if (up < others)
          return false;
      }
      return true;
    },
    30s);
  if (!formed)
    throw std::runtime_error("the cluster did not form within 30 s; last: " + last);
}

std::size_t cluster_fixture::owner_of_team(const std::string& team_id) const {
  auto owners = status(0).at("owners").as_array();
  auto owner = std::string{owners.at(core::shard_of_team(team_id)).as_string()};
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == owner)
      return i;
  throw std::runtime_error("the map names an unknown node " + owner);
}

header_map cluster_fixture::admin_auth(std::size_t i) const {
  return {{"Authorization", "Bearer " + nodes[i]->admin_token()}};
}

json::value cluster_fixture::admin_create(std::size_t via, const std::string& path, const json::object& body) const {
  auto h = admin_auth(via);
  h["Content-Type"] = "application/json";
  auto r = admin(via).request("POST", path, h, json::serialize(body));
  if (r.status != 201)
    throw std::runtime_error("POST " + path + " through " + ids[via] + ": " + r.summary());
  return r.json();
}

std::string cluster_fixture::create_team(std::size_t via, std::int64_t credits) const {
  return json_str(admin_create(via, "/admin/teams",
                               {{"name", "cluster team"}, {"owner_email", "owner@example.com"}, {"credits", credits}}),
                  "id");
}

std::string cluster_fixture::create_key(std::size_t via, const std::string& team_id, const std::string& scope) const {
  return json_str(admin_create(via, "/admin/keys", {{"team_id", team_id}, {"scope", scope}}), "key");
}

std::pair<std::string, std::string> cluster_fixture::team_on(std::size_t owner) const {
  for (int tries = 0; tries < 64; ++tries) {
    auto team = create_team(0);
    if (owner_of_team(team) == owner)
      return {team, create_key(0, team)};
  }
  throw std::runtime_error("64 teams and none on " + ids[owner]);
}

} // namespace svc::e2e
