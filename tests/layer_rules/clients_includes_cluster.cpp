// Must not compile: clients/ sits below cluster/.
#include "cluster/etcd_values.hpp"
