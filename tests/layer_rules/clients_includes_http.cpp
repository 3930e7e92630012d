// Must not compile: clients/ and http/ stand side by side.
#include "http/router.hpp"
