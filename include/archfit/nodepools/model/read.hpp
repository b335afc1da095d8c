// Reading node pools from manifests: Karpenter NodePools (karpenter.sh/v1 and
// v1beta1) and Provisioners (karpenter.sh/v1alpha5), and the node groups of
// an eksctl ClusterConfig (nodeGroups and managedNodeGroups).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/nodepools/model/pool.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::nodepools {

struct ReadOptions {
  // Architectures of instance types archfit does not know (nodePools.instanceArchs).
  std::map<std::string, std::string> instance_archs;
};

// Whether a document's text may hold a pool object: a quick look for their
// API groups and kinds before anything is parsed.
bool may_hold_pools(std::string_view text);

// The object is a NodePool, a Provisioner or a ClusterConfig.
bool is_pool_object(yaml::NodeRef root);

// The pools an object defines, each placed at its node (file and document
// are left for the caller); none for other objects. Throws Error(Input) at
// the value's line and column when a pool's fields are not what its kind
// allows (an operator that is not one, a taint without a key or effect).
std::vector<Pool> read_pools(yaml::NodeRef root, const ReadOptions& options = {});

}  // namespace archfit::nodepools
