// The features every run of the command line has, in the order they gather
// and see documents: node pools, then spread (which places replicas on the
// pools the first gathered). A run owns one set; RunOptions points at it.
#pragma once

#include <vector>

#include <archfit/nodepools/feature.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/spread/feature.hpp>

namespace archfit::cli {

struct Features {
  nodepools::NodePools pools;
  spread::Spread spread{pools};

  Features() = default;
  Features(const Features&) = delete;
  Features& operator=(const Features&) = delete;

  std::vector<run::Feature*> list() { return {&pools, &spread}; }
};

}  // namespace archfit::cli
