#include "clients/libcurl_loader.hpp"

#include <cstdarg>
#include <mutex>

#include <curl/curl.h>

#include "core/lazy_library.hpp"

namespace svc::clients {
namespace {

// libcurl's soname has kept major version 4 since 2006.
core::lazy_library libcurl{"libcurl.so.4"};

} // namespace

bool load_libcurl(std::string& error) {
  if (!libcurl.load(error)) {
    error = "loading libcurl: " + error;
    return false;
  }
  static std::once_flag once;
  static CURLcode init = CURLE_OK;
  std::call_once(once, [] { init = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (init != CURLE_OK)
    error = std::string{"libcurl: "} + curl_easy_strerror(init);
  return init == CURLE_OK;
}

} // namespace svc::clients

// The libcurl functions svc_clients calls. One added elsewhere fails to link
// until it is listed here.
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLcode, curl_global_init, (long flags), (flags))
SVC_LAZY_FORWARD(svc::clients::libcurl, const char*, curl_easy_strerror, (CURLcode code), (code))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURL*, curl_easy_init, (void), ())
SVC_LAZY_FORWARD(svc::clients::libcurl, void, curl_easy_cleanup, (CURL* c), (c))
SVC_LAZY_FORWARD(svc::clients::libcurl, curl_slist*, curl_slist_append, (curl_slist* l, const char* s), (l, s))
SVC_LAZY_FORWARD(svc::clients::libcurl, void, curl_slist_free_all, (curl_slist* l), (l))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLM*, curl_multi_init, (void), ())
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMcode, curl_multi_cleanup, (CURLM* m), (m))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMcode, curl_multi_add_handle, (CURLM* m, CURL* c), (m, c))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMcode, curl_multi_remove_handle, (CURLM* m, CURL* c), (m, c))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMcode, curl_multi_perform, (CURLM* m, int* running), (m, running))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMsg*, curl_multi_info_read, (CURLM* m, int* queued), (m, queued))
SVC_LAZY_FORWARD(svc::clients::libcurl, CURLMcode, curl_multi_poll,
                 (CURLM* m, curl_waitfd extra[], unsigned int n, int timeout_ms, int* ret), (m, extra, n, timeout_ms, ret))

// Variadic: the one argument after `option` is a long, a pointer, a function
// pointer or a curl_off_t, as the option's number range says (CURLOPTTYPE_*);
// it is read as that type and passed on as that type, as libcurl reads it.
// The name is parenthesised: curl.h defines curl_easy_setopt as a macro too.
extern "C" CURLcode(curl_easy_setopt)(CURL* c, CURLoption option, ...) {
  using setopt = CURLcode (*)(CURL*, CURLoption, ...);
  static auto* const real = reinterpret_cast<setopt>(svc::clients::libcurl.symbol("curl_easy_setopt"));
  va_list arg;
  // curl.h fixes this signature; its enum parameter is promoted to int like
  // the int libcurl's own va_start sees, which clang flags all the same.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wvarargs"
#endif
  va_start(arg, option);
#ifdef __clang__
#pragma clang diagnostic pop
#endif
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = real(c, option, va_arg(arg, long));
  else if (option < CURLOPTTYPE_FUNCTIONPOINT || option >= CURLOPTTYPE_BLOB)
    rc = real(c, option, va_arg(arg, void*));
  else if (option < CURLOPTTYPE_OFF_T)
    rc = real(c, option, va_arg(arg, void (*)()));
  else
    rc = real(c, option, va_arg(arg, curl_off_t));
  va_end(arg);
  return rc;
}
