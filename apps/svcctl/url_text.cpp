#include "apps/svcctl/url_text.hpp"

#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

namespace svc::ctl {

std::string percent_encode(const std::string& text) { return boost::urls::encode(text, boost::urls::unreserved_chars); }

} // namespace svc::ctl
