#pragma once
// The actor test bed with a team directory (no bucket directory) and one
// team it created, for the tests of the team directory and the keyring.

#include <string>

#include "actor_fixture.hpp"
#include "actors/team_directory.hpp"

namespace svc::test {

struct team_directory_fixture : actor_fixture {
  actors::team_directory_actor teams =
    track(sys.spawn(actors::team_directory, ctx(), actors::bucket_directory_actor{}));
  std::string team_id = create_team();

  /// Creates team "Acme" with 100 credits; returns its id.
  std::string create_team() {
    auto t = ask<schema::team_record>(teams, actors::create_atom::value, actors::new_team{"Acme", "ops@example.com", 100});
    BOOST_REQUIRE_MESSAGE(t.value, "team create failed: " << sys.render(t.error));
    return t.value->id;
  }
};

} // namespace svc::test
