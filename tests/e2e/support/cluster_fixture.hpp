#pragma once
// A cluster under test: one etcd and N svcd nodes on loopback (ephemeral
// ports, fresh data directories holding the cluster's one admin token), each
// with a certificate of one test CA that names it, the shards dealt
// round-robin over them at first start. Heartbeats and leases are short so failures show within a
// second or two.

#include <memory>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "bench/receiver/test_ca.hpp"
#include "etcd_server.hpp"
#include "support/http_client.hpp"
#include "support/server_fixture.hpp"
#include "support/svcd_process.hpp"

namespace svc::e2e {

class cluster_fixture {
public:
  /// Starts etcd and `count` nodes `n1..nN`, each also given `extra_args`, then waits until every node sees the
  /// map and a link up to every other.
  explicit cluster_fixture(int count = 3, std::vector<std::string> extra_args = {});
  /// Prints every node's log tail if the current test case has failed.
  ~cluster_fixture();

  /// The arguments that make node `id` a member, with `pki_dir`'s ca.pem and ID.pem, ID.key, then `extra_args`.
  std::vector<std::string> node_args(const std::string& id, const std::string& pki_dir) const;
  /// Writes ID.pem and ID.key into `pki_dir`: a certificate of the cluster's CA that names node `id`.
  void issue_identity(const std::string& id) const;
  /// Starts svcd with `args` on a fresh data directory that holds the cluster's admin token, as an
  /// operator sets up each node (the owner of a team checks the token of an admin request forwarded to it).
  std::unique_ptr<svcd_process> start_member(std::vector<std::string> args) const;
  /// Waits until every running node has the map and every other running node's link up.
  void wait_formed() const;
  /// GET /admin/cluster of node `i`.
  boost::json::value status(std::size_t i) const;
  /// Index of the node holding `team_id`.
  std::size_t owner_of_team(const std::string& team_id) const;

  http_client api(std::size_t i) const { return http_client{nodes[i]->api_url()}; }
  http_client admin(std::size_t i) const { return http_client{nodes[i]->admin_url()}; }
  header_map admin_auth(std::size_t i) const;

  /// Creates a team through node `via` (POST /admin/teams); returns its id.
  std::string create_team(std::size_t via, std::int64_t credits = 1000) const;
  /// Creates a key of `scope` for `team_id` through node `via`; returns the plaintext.
  std::string create_key(std::size_t via, const std::string& team_id, const std::string& scope = "full") const;
  /// Creates teams through node 0 until one is held by node `owner`; returns it with a full-scope key.
  std::pair<std::string, std::string> team_on(std::size_t owner) const;

  /// POST `body` to the admin `path` of node `via`; its 201 answer (throws on any other).
  boost::json::value admin_create(std::size_t via, const std::string& path, const boost::json::object& body) const;

  test::etcd_server etcd{test::etcd_mode::secured}; ///< TLS, client certificates, RBAC: as in production
  receiver::test_pki pki; ///< the cluster's CA, which signs each node's certificate
  std::string pki_dir;    ///< ca.pem, and ID.pem, ID.key for each node
  std::string admin_token; ///< every member's DIR/admin.token
  std::vector<std::string> ids;
  std::vector<std::string> extra_args; ///< what every node gets after its membership arguments
  std::vector<std::unique_ptr<svcd_process>> nodes;
};

} // namespace svc::e2e
