#include "core/build_info.hpp"

namespace svc::core {

std::string_view build_version() { return SVC_BUILD_VERSION; }
std::string_view build_commit() { return SVC_BUILD_COMMIT; }

} // namespace svc::core
