// SPDX-License-Identifier: BSD-3-Clause
// Csr -> {Ell, Sellp (also SELL-C-sigma), Hybrid} -> Csr round trips and one SpMV check on every
// shared real matrix (double/int32; the matrices are read once per process).
// ELL runs under an explicit 256 MiB limit: format_too_large must be thrown
// exactly when rows * longest row * 12 bytes exceeds it (arrow's dense row,
// as-caida's and email-Enron's hubs).
#include "fixtures/row_lengths.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"

namespace kobalt::test {
namespace {

using V = double;
using I = std::int32_t;

// ELL storage limit of this test: keeps the test's memory modest; most shared
// matrices fit, the ones with hub rows do not.
constexpr std::uint64_t ell_limit = std::uint64_t{1} << 28;

class PaddedFormatsOnSharedMatrices : public NeedsSharedMatrices<::testing::TestWithParam<std::string>> {};

TEST_P(PaddedFormatsOnSharedMatrices, RoundTripAndSpmv) {
  const std::string name = GetParam();
  const Triplets<V, I>& t = shared_matrix<V, I>(name);
  const auto a = make_csr(t);
  const auto len = row_lengths(t);
  std::int64_t longest = 0;
  for (auto l : len) longest = std::max(longest, l);
  ASSERT_EQ(longest, manifest_entry(name).max_row_nnz) << name;
  const SpmvCase overwrite{1.0, 0.0, 0};

  const std::uint64_t ell_bytes =
      static_cast<std::uint64_t>(t.rows) * static_cast<std::uint64_t>(longest) * (sizeof(I) + sizeof(V));
  if (ell_bytes > ell_limit) {
    EXPECT_THROW(to_ell(a, {0, 0, ell_limit}), format_too_large) << name;
  } else {
    const auto e = to_ell(a, {0, 0, ell_limit});
    expect_same_triplets(t, to_triplets(to_csr(e)), name + " ell");
    expect_spmv_case<V>(e, t, overwrite, name + " ell");
  }
  for (const sellp_params p :
       {sellp_params{}, sellp_params{8, 8, 0}, sellp_params{32, 1, 0, 1024}}) {
    const auto s = to_sellp(a, p);
    const std::string what = name + " sellp b=" + std::to_string(p.slice_size) +
                             " sigma=" + std::to_string(p.sort_window);
    expect_same_triplets(t, to_triplets(to_csr(s)), what);
    expect_spmv_case<V>(s, t, overwrite, what);
  }
  for (const hybrid::partition& s :
       {hybrid::partition{hybrid::automatic{}}, hybrid::partition{hybrid::minimal_storage{}}}) {
    const auto h = to_hybrid(a, s);
    const std::string what = name + " hybrid " + hybrid::name(s) + " t=" + std::to_string(h.ell_width());
    expect_same_triplets(t, to_triplets(to_csr(h)), what);
    expect_spmv_case<V>(h, t, overwrite, what);
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, PaddedFormatsOnSharedMatrices,
                         ::testing::ValuesIn(shared_matrix_params()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace kobalt::test
