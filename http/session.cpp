#include "http/session.hpp"

#include "http/session_impl.hpp"

namespace svc::http {

template class basic_session<beast::tcp_stream>;

} // namespace svc::http
