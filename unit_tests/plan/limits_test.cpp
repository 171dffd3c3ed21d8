// SPDX-License-Identifier: BSD-3-Clause
// What a handle asks of the device: the automatic handle's storage (a
// regular matrix that ELL would pad to many slots per nonzero stays in Csr).
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <string>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;
using V = double;
using I = int;

// A regular matrix whose few long rows would pad ELL to 5 slots per
// nonzero (rows of 9 and of 1 entry, one in ten long: variance 5.76, so
// 002's rule calls it regular) stays in Csr even where the profile
// converts every regular matrix; a band that ELL pads little still converts.
TEST(HandleLimits, AutomaticKeepsInCsrWhatEllWouldPadMuch) {
  const exec_type exec;
  tuning::DeviceProfile p = tuning::profile_of(exec);
  p.auto_min_convert_nnz = 1;
  p.auto_hybrid_min_nnz = 1;
  Triplets<V, I> block, band;
  block.rows = block.cols = band.rows = band.cols = 2000;
  for (I i = 0; i < 2000; ++i) {
    const I entries = i % 10 == 0 ? 9 : 1;
    for (I j = 0; j < entries; ++j) block.push_back(i, (i + 37 * j) % 2000, V(1 + j));
    for (I d = -1; d <= 1; ++d)
      if (i + d >= 0 && i + d < 2000) band.push_back(i, i + d, V(2 + d));
  }
  block.assemble();
  band.assemble();
  const auto b = make_csr(block);
  const AutoHandle<std::decay_t<decltype(b)>, exec_type> hb(exec, b, automatic{1000000000}, p);
  ASSERT_TRUE(hb.stats().regular()) << hb.describe();
  EXPECT_EQ(hb.choice().format, tuning::auto_format::csr) << hb.describe();
  EXPECT_NE(hb.describe().find("ELL would store 5 > 1.25 slots per nonzero"), std::string::npos)
      << hb.describe();
  EXPECT_EQ(hb.converted_bytes(), 0u);
  for (const auto& c : cases_for<V>())
    expect_apply_case<V, typename std::decay_t<decltype(b)>::device_type>(
        block, c, "block", [&](V alpha, const auto& x, V beta, const auto& y) {
          kobalt::spmv(exec, hb, alpha, b, x, beta, y);
        });
  const auto d = make_csr(band);
  const AutoHandle<std::decay_t<decltype(d)>, exec_type> hd(exec, d, automatic{1000000000}, p);
  EXPECT_EQ(hd.choice().format, tuning::auto_format::ell) << hd.describe();
}

}  // namespace
}  // namespace kobalt::test
