// Must not compile: http/ sits below cluster/.
#include "cluster/cluster_node.hpp"
