// The features every session has, in the order they gather and see
// documents: node pools, then spread (which places replicas on the pools the
// first gathered), and readiness when a report of it is wanted. A session owns one set; the run's
// options point at it.
#pragma once

#include <vector>

#include <archfit/nodepools/feature.hpp>
#include <archfit/readiness/feature.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/spread/feature.hpp>

namespace archfit::app {

struct Features {
  nodepools::NodePools pools;
  spread::Spread spread{pools};
  // Counted only when a readiness report is asked for (Request::readiness).
  readiness::Readiness readiness;
  bool with_readiness = false;

  Features() = default;
  Features(const Features&) = delete;
  Features& operator=(const Features&) = delete;

  std::vector<run::Feature*> list() {
    std::vector<run::Feature*> out = {&pools, &spread};
    if (with_readiness) out.push_back(&readiness);
    return out;
  }
};

}  // namespace archfit::app
