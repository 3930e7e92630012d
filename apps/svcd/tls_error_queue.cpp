// Every TLS read, write and handshake in svcd starts with an empty OpenSSL
// error queue, as OpenSSL requires for SSL_get_error to mean anything.
//
// Why this file exists: CAF 0.17.6's TLS transport (libcaf_openssl,
// session.cpp) calls SSL_read/SSL_write on the one multiplexer thread that
// serves every peer connection and never clears that thread's error queue;
// it drains it only in log statements that Debian's build compiles out. When
// one peer dies, its failed read leaves an error in the queue, and the next
// read on *another* peer's healthy connection that merely would block is
// taken by SSL_get_error for a failure: CAF closes that connection too.
// Observed with three nodes: killing one dropped the link between the other
// two at their next exchange, failing the requests in flight on it.
//
// svcd defines these four functions; the dynamic linker binds CAF's calls
// (and our own) to them ahead of libssl's, and each forwards to libssl's
// after ERR_clear_error(). Linked into svcd only (apps/CMakeLists.txt).
#include <dlfcn.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "apps/svcd/next_definition.hpp"

extern "C" {

int SSL_read(SSL* ssl, void* buf, int num) {
  static auto real = next_definition<int (*)(SSL*, void*, int)>("SSL_read");
  ERR_clear_error();
  return real(ssl, buf, num);
}

int SSL_write(SSL* ssl, const void* buf, int num) {
  static auto real = next_definition<int (*)(SSL*, const void*, int)>("SSL_write");
  ERR_clear_error();
  return real(ssl, buf, num);
}

int SSL_connect(SSL* ssl) {
  static auto real = next_definition<int (*)(SSL*)>("SSL_connect");
  ERR_clear_error();
  return real(ssl);
}

int SSL_accept(SSL* ssl) {
  static auto real = next_definition<int (*)(SSL*)>("SSL_accept");
  ERR_clear_error();
  return real(ssl);
}

} // extern "C"
