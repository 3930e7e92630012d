// Must not compile: http/ and clients/ stand side by side.
#include "clients/webhook_client.hpp"
