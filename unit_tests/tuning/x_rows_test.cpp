// SPDX-License-Identifier: BSD-3-Clause
// tuning::stage_x_rows (tuning/x_rows.hpp): when a rank-2 GPU apply gathers
// x from a row-major copy. Each condition of the rule is checked on its
// own, from statistics shaped like the measured matrices (R-MAT scale 22,
// circuit, lap3d:200) on a GPU profile with the H200's 60 MiB of L2.
#include "fixtures/profiles.hpp"

#include <kobalt/tuning/x_rows.hpp>

#include <gtest/gtest.h>

namespace kobalt::test {
namespace {

tuning::DeviceProfile h200_like() {
  auto p = fake_gpu_profile();
  p.l2_bytes = std::uint64_t(60) << 20;
  return p;
}

tuning::MatrixStats shaped(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                           double variance) {
  tuning::MatrixStats s;
  s.rows = rows;
  s.cols = cols;
  s.nnz = nnz;
  s.mean_row_nnz = double(nnz) / double(rows);
  s.variance_row_nnz = variance;
  return s;
}

const tuning::MatrixStats rmat = shaped(4194304, 4194304, 65248482, 3.6e4);
const tuning::MatrixStats circuit = shaped(16000000, 16000000, 51999938, 25.0);
const tuning::MatrixStats lap3d = shaped(8000000, 8000000, 55760000, 0.03);

TEST(StageXRows, SkewedMatrixWithManyEntriesPerColumnAtEightColumns) {
  const auto p = h200_like();
  ASSERT_EQ(p.x_rows_min_rhs, 8);
  EXPECT_TRUE(tuning::stage_x_rows(rmat, p, 8, 8));
  EXPECT_TRUE(tuning::stage_x_rows(rmat, p, 17, 8));
  EXPECT_FALSE(tuning::stage_x_rows(rmat, p, 7, 8));  // below the measured K
}

TEST(StageXRows, RegularMatricesKeepX) {
  EXPECT_FALSE(tuning::stage_x_rows(lap3d, h200_like(), 8, 8));
}

TEST(StageXRows, FewEntriesPerColumnKeepX) {
  // circuit: 3.25 entries per column, where the copy lost on the H200.
  EXPECT_FALSE(tuning::stage_x_rows(circuit, h200_like(), 8, 8));
  auto six = shaped(1000000, 1000000, 6000000, 50.0);
  EXPECT_TRUE(tuning::stage_x_rows(six, h200_like(), 8, 8));
  six.nnz -= 1;
  EXPECT_FALSE(tuning::stage_x_rows(six, h200_like(), 8, 8));
}

TEST(StageXRows, XThatFitsInL2KeepsX) {
  // 983,040 rows x 8 doubles = 60 MiB exactly: not larger than L2.
  auto fits = shaped(983040, 983040, 983040 * 10, 50.0);
  EXPECT_FALSE(tuning::stage_x_rows(fits, h200_like(), 8, 8));
  EXPECT_TRUE(tuning::stage_x_rows(fits, h200_like(), 16, 8));  // twice that
  auto unknown = h200_like();
  unknown.l2_bytes = 0;  // unknown L2: counted as smaller than x
  EXPECT_TRUE(tuning::stage_x_rows(fits, unknown, 8, 8));
}

TEST(StageXRows, HostsAndProfilesThatTurnItOffKeepX) {
  auto off = h200_like();
  off.x_rows_min_rhs = 0;
  EXPECT_FALSE(tuning::stage_x_rows(rmat, off, 8, 8));
  auto host = h200_like();
  host.gpu = false;
  EXPECT_FALSE(tuning::stage_x_rows(rmat, host, 8, 8));
  EXPECT_EQ(host_profile().x_rows_min_rhs, 0);
  EXPECT_FALSE(tuning::stage_x_rows(rmat, host_profile(), 8, 8));
}

}  // namespace
}  // namespace kobalt::test
