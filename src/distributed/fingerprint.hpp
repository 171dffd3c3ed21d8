// SPDX-License-Identifier: BSD-3-Clause
// A 64-bit fingerprint of integers (FNV-1a), for ranks to compare what each
// holds (a partition, a host name) in one small collective.
#pragma once

#include <cstdint>

namespace kobalt::distributed::detail {

/// FNV-1a over 64-bit words: add() each, then value().
class Fingerprint {
 public:
  /// Mixes `v` in.
  void add(std::uint64_t v) { h_ = (h_ ^ v) * 1099511628211ULL; }  // FNV-1a's 64-bit prime
  /// The fingerprint so far.
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 1469598103934665603ULL;  // FNV-1a's 64-bit offset basis
};

}  // namespace kobalt::distributed::detail
