// Must not compile: actors/ sits below http/.
#include "http/router.hpp"
