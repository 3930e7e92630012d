// Every message of every actor interface crosses CAF's binary serializer and
// comes back the same: each element has an `inspect` and a registered type
// name (`add_message_types`), so any message may leave the process. The
// values are generated from the descriptions, every field set, and each
// description is checked to name every member of its struct.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>
#include <caf/all.hpp>

#include "actors/message_types.hpp"
#include "actors/messages.hpp"
#include "tests/support/spawn_behavior.hpp"

BOOST_AUTO_TEST_SUITE(actors_message_types)

namespace {

namespace actors = svc::actors;

// The interfaces of messages.hpp.
using interfaces = caf::detail::type_list<
  actors::introspectable_actor, actors::store_actor, actors::registry_actor, actors::bucket_actor,
  actors::bucket_directory_actor, actors::anonymous_bucket_actor, actors::keyring_actor,
  actors::team_directory_actor, actors::ledger_actor, actors::ledger_directory_actor, actors::job_actor,
  actors::job_directory_actor, actors::expiry_sweeper_actor, actors::endpoint_actor,
  actors::endpoint_directory_actor, actors::file_writer_actor, actors::mailer_actor, actors::lora_catalogue_actor, actors::node_actor,
  actors::peer_router_actor>;

template <class T>
constexpr bool is_described = boost::describe::has_describe_members<T>::value;

template <class T>
struct is_typed_handle : std::false_type {};
template <class... Sigs>
struct is_typed_handle<caf::typed_actor<Sigs...>> : std::true_type {};

template <class T>
struct is_atom : std::false_type {};
template <caf::atom_value V>
struct is_atom<caf::atom_constant<V>> : std::true_type {};

// Fills a value with a distinct non-default value in every field (`n`
// counts up, so no two fields of a struct are equal by accident).
class sampler {
public:
  explicit sampler(caf::actor someone) : someone_{std::move(someone)} {}

  template <class T>
  T make() {
    T x{};
    fill(x);
    return x;
  }

private:
  template <class T>
  void fill(T& x) {
    if constexpr (is_atom<T>::value) {
    } else if constexpr (std::is_same_v<T, bool>) {
      x = true;
    } else if constexpr (std::is_enum_v<T>) {
      x = static_cast<T>(1);
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(++n_) + 0.25;
    } else if constexpr (std::is_integral_v<T>) {
      x = static_cast<T>(++n_);
    } else if constexpr (std::is_same_v<T, std::string>) {
      x = "s" + std::to_string(++n_);
    } else if constexpr (std::is_same_v<T, svc::core::time_point>) {
      x = svc::core::time_point{std::chrono::milliseconds{1'790'000'000'000 + ++n_}};
    } else if constexpr (std::is_same_v<T, std::chrono::milliseconds>) {
      x = std::chrono::milliseconds{++n_};
    } else if constexpr (std::is_same_v<T, std::shared_ptr<const std::string>>) {
      x = std::make_shared<const std::string>("bytes " + std::to_string(++n_));
    } else if constexpr (std::is_same_v<T, caf::actor_addr>) {
      x = someone_.address();
    } else if constexpr (std::is_same_v<T, caf::strong_actor_ptr>) {
      x = caf::actor_cast<caf::strong_actor_ptr>(someone_);
    } else if constexpr (is_typed_handle<T>::value) {
      x = caf::actor_cast<T>(someone_);
    } else if constexpr (is_described<T>) {
      using members = boost::describe::describe_members<T, boost::describe::mod_public>;
      static_assert(boost::pfr::tuple_size_v<T> == boost::mp11::mp_size<members>::value,
                    "SVC_DESCRIBE must name every member of the struct");
      boost::mp11::mp_for_each<members>([&](auto m) { fill(x.*m.pointer); });
    } else {
      fill_container(x);
    }
  }

  template <class T>
  void fill_container(std::optional<T>& x) {
    fill(x.emplace());
  }
  template <class T>
  void fill_container(std::vector<T>& x) {
    fill(x.emplace_back());
    fill(x.emplace_back());
  }
  template <class K, class V>
  void fill_container(std::map<K, V>& x) {
    for (int i = 0; i < 2; ++i) {
      K k{};
      fill(k);
      fill(x[k]);
    }
  }

  caf::actor someone_;
  int64_t n_ = 0;
};

template <class... Ts>
std::vector<char> serialized(caf::actor_system& sys, Ts&... xs) {
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  auto err = sink(xs...);
  BOOST_REQUIRE_MESSAGE(!err, "serialising failed: " << sys.render(err));
  return buf;
}

// What a node that receives `msg` from `sys` would read.
caf::message round_trip(caf::actor_system& sys, caf::message& msg) {
  auto bytes = serialized(sys, msg);
  caf::message back;
  caf::binary_deserializer source{sys, bytes};
  auto err = source(back);
  BOOST_REQUIRE_MESSAGE(!err, "message " << caf::to_string(msg) << ": " << sys.render(err));
  return back;
}

caf::actor_system_config& with_message_types(caf::actor_system_config& cfg) {
  actors::add_message_types(cfg);
  return cfg;
}

struct fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys{with_message_types(cfg)};
  // Handles inside messages refer to a live actor; any will do.
  caf::actor someone = svc::test::spawn_behavior(sys, caf::behavior{[](int) {}});
  sampler sample{someone};
  int checked_messages = 0;
  int checked_elements = 0;

  ~fixture() { caf::anon_send_exit(someone, caf::exit_reason::user_shutdown); }

  // A value with every field set reads back to the same bytes, which differ
  // from a default value's (so no field is silently skipped).
  template <class T>
  void check_element() {
    if constexpr (!is_atom<T>::value) {
      auto x = sample.make<T>();
      auto bytes = serialized(sys, x);
      T back{};
      caf::binary_deserializer source{sys, bytes};
      auto err = source(back);
      BOOST_REQUIRE_MESSAGE(!err, typeid(T).name() << ": " << sys.render(err));
      BOOST_TEST(serialized(sys, back) == bytes, typeid(T).name() << " reads back differently");
      if constexpr (!is_typed_handle<T>::value && !std::is_same_v<T, caf::actor_addr>) {
        T empty{};
        BOOST_TEST(serialized(sys, empty) != bytes, typeid(T).name() << " serialises no field");
      }
      ++checked_elements;
    }
  }

  // The message as a whole: every element's type has a name, or CAF writes
  // an empty message in its place (which another node would receive).
  template <class... Ts>
  void check_message() {
    (check_element<Ts>(), ...);
    auto msg = caf::make_message(sample.make<Ts>()...);
    auto back = round_trip(sys, msg);
    BOOST_TEST(back.size() == sizeof...(Ts), "message " << caf::to_string(msg) << " loses its elements");
    BOOST_TEST(serialized(sys, back) == serialized(sys, msg));
    ++checked_messages;
  }

  template <class... Ins, class... Outs>
  void check_signature(caf::typed_mpi<caf::detail::type_list<Ins...>, caf::output_tuple<Outs...>>*) {
    check_message<Ins...>();
    if constexpr (!std::is_same_v<caf::detail::type_list<Outs...>, caf::detail::type_list<void>>)
      check_message<Outs...>();
  }

  template <class... Sigs>
  void check_interface(caf::typed_actor<Sigs...>*) {
    (check_signature(static_cast<Sigs*>(nullptr)), ...);
  }

  template <class... Handles>
  void check_interfaces(caf::detail::type_list<Handles...>) {
    (check_interface(static_cast<Handles*>(nullptr)), ...);
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(every_message_of_every_interface_round_trips, fixture) {
  check_interfaces(interfaces{});
  BOOST_TEST_MESSAGE(checked_messages << " messages, " << checked_elements << " elements");
  BOOST_TEST(checked_messages >= 100);
}

BOOST_FIXTURE_TEST_CASE(an_unregistered_type_does_not_survive, fixture) {
  // The check above would pass vacuously if any message came back whole: a
  // system without the names sends a stored record as an empty message.
  caf::actor_system_config bare_cfg;
  caf::actor_system bare{bare_cfg};
  auto msg = caf::make_message(sample.make<svc::schema::job_record>());
  BOOST_TEST(round_trip(bare, msg).size() == 0u);
  BOOST_TEST(round_trip(sys, msg).size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(optional_members_keep_absent_and_present_apart, fixture) {
  svc::schema::api_key_record absent, present;
  present.revoked_at = svc::core::time_point{};
  auto a = serialized(sys, absent);
  auto p = serialized(sys, present);
  BOOST_TEST(a != p);
  svc::schema::api_key_record back;
  back.revoked_at = svc::core::time_point{std::chrono::seconds{5}};
  caf::binary_deserializer source{sys, a};
  BOOST_REQUIRE(!source(back));
  BOOST_TEST(!back.revoked_at.has_value());
  caf::binary_deserializer again{sys, p};
  BOOST_REQUIRE(!again(back));
  BOOST_TEST((back.revoked_at == svc::core::time_point{}));
}

BOOST_AUTO_TEST_SUITE_END()
