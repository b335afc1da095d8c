// The features every session has, in the order they gather and see
// documents: node pools, then spread (which places replicas on the pools the
// first gathered). A session owns one set; the run's options point at it.
#pragma once

#include <vector>

#include <archfit/nodepools/feature.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/spread/feature.hpp>

namespace archfit::app {

struct Features {
  nodepools::NodePools pools;
  spread::Spread spread{pools};

  Features() = default;
  Features(const Features&) = delete;
  Features& operator=(const Features&) = delete;

  std::vector<run::Feature*> list() { return {&pools, &spread}; }
};

}  // namespace archfit::app
