// Compiles: http/ may include the layers below it (the control of this folder's probes).
#include "actors/messages.hpp"
#include "http/router.hpp"
