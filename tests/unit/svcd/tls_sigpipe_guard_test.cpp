// svcd's stand-ins for pthread_sigmask and sigtimedwait
// (apps/svcd/tls_sigpipe_guard.cpp), linked into this test as into svcd:
// SIGPIPE is ignored before main, and every caller outside CAF's TLS
// transport (this test is one) still gets libc's own behaviour.
#include <boost/test/unit_test.hpp>

#include <signal.h>

#include <cerrno>
#include <ctime>

BOOST_AUTO_TEST_SUITE(svcd_tls_sigpipe_guard)

namespace {

sigset_t only_sigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}

bool sigpipe_blocked() {
  sigset_t now;
  pthread_sigmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, SIGPIPE) == 1;
}

} // namespace

BOOST_AUTO_TEST_CASE(sigpipe_is_ignored_before_main) {
  struct sigaction current = {};
  BOOST_TEST_REQUIRE(sigaction(SIGPIPE, nullptr, &current) == 0);
  BOOST_TEST((current.sa_handler == SIG_IGN));
}

BOOST_AUTO_TEST_CASE(other_callers_block_wait_for_and_restore_sigpipe_as_with_libc) {
  auto pipe_only = only_sigpipe();
  sigset_t saved;
  BOOST_TEST_REQUIRE(pthread_sigmask(SIG_BLOCK, &pipe_only, &saved) == 0);
  BOOST_TEST(sigpipe_blocked());
  // Blocked, an ignored SIGPIPE stays pending, and the zero-timeout wait
  // (the very call CAF's guard makes) takes it.
  BOOST_TEST_REQUIRE(raise(SIGPIPE) == 0);
  timespec zero = {};
  BOOST_TEST(sigtimedwait(&pipe_only, nullptr, &zero) == SIGPIPE);
  errno = 0;
  BOOST_TEST(sigtimedwait(&pipe_only, nullptr, &zero) == -1);
  BOOST_TEST(errno == EAGAIN);
  BOOST_TEST_REQUIRE(pthread_sigmask(SIG_SETMASK, &saved, nullptr) == 0);
  BOOST_TEST(!sigpipe_blocked());
}

BOOST_AUTO_TEST_SUITE_END()
