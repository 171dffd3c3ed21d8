// SPDX-License-Identifier: BSD-3-Clause
// What a handle asks of the device. Launches stay within what the backend
// runs: a device profile that asks for a larger team (KOBALT_PROFILE
// {"team_threads": 2} on Serial ended in Kokkos::abort) is clamped, with a
// note describe() shows, and the results are right; a launch policy the
// caller gives that asks for more is an invalid_parameter naming the limit,
// before Kokkos sees it; a kernel whose registers allow fewer threads than
// the backend's largest team runs with fewer. And the automatic handle's storage: a regular
// matrix that ELL would pad to many slots per nonzero stays in Csr.
#include "fixtures/csrk_cases.hpp"
#include "fixtures/every_format.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/scoped_env.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/temp_files.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <string>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;
using V = double;
using I = int;

/// The device's profile read with KOBALT_PROFILE naming a file of `text`.
tuning::DeviceProfile profile_from(const std::string& text) {
  const TempFile f(text);
  const ScopedEnv env("KOBALT_PROFILE", f.path().c_str());
  return tuning::profile_of(exec_type());
}

/// Every handle case of `h` against the reference, and the policy within
/// the backend's limits.
template <class Matrix>
void expect_handle_runs(const SpmvHandle<Matrix, exec_type>& h, const Matrix& a,
                        const Triplets<V, I>& t, const std::string& what) {
  const arch::TeamLimits& limits = arch::cached_team_limits(exec_type());
  for (const auto& l : h.policy().launches)
    EXPECT_EQ(tuning::launch_excess(l, limits), "") << what << ": " << h.describe();
  expect_handle_matches_reference(exec_type(), h, a, t, what);
}

TEST(HandleLimits, ProfileAskingForLargerTeamsIsClampedWithANote) {
  const exec_type exec;
  const int too_many = max_team_threads() + 1;
  const tuning::DeviceProfile p =
      profile_from("{\n  \"team_threads\": " + std::to_string(too_many) + "\n}\n");
  ASSERT_EQ(p.team_threads, too_many);
  const Triplets<V, I> t = edge_matrix<V, I>("odd_rows_33x47_long");
  const auto csr = make_csr(t);
  // The row launches take the profile's team_threads (CSR basic and
  // classical, ELL rows, ALIGNED_COO's seg part).
  const SpmvHandle<std::decay_t<decltype(csr)>, exec_type> basic(exec, csr, csr::basic{}, p);
  EXPECT_NE(basic.describe().find("(note: rows clamped: team_size " + std::to_string(too_many)),
            std::string::npos)
      << basic.describe();
  EXPECT_NE(basic.describe().find("(Kokkos team_size_max)"), std::string::npos)
      << basic.describe();
  expect_handle_runs(basic, csr, t, "csr basic");
  const SpmvHandle<std::decay_t<decltype(csr)>, exec_type> classical(exec, csr, csr::classical{},
                                                                     p);
  expect_handle_runs(classical, csr, t, "csr classical");
  const auto ell = to_ell(csr);
  const SpmvHandle<std::decay_t<decltype(ell)>, exec_type> rows(exec, ell, ell::rows{}, p);
  expect_handle_runs(rows, ell, t, "ell rows");
  const auto hyb = to_hybrid(csr);
  const SpmvHandle<std::decay_t<decltype(hyb)>, exec_type> h(exec, hyb, hybrid::ell_then_coo{}, p);
  expect_handle_runs(h, hyb, t, "hybrid");
  const auto acoo = to_aligned_coo(csr);
  const SpmvHandle<std::decay_t<decltype(acoo)>, exec_type> seg(exec, acoo,
                                                                aligned_coo::seg_then_flat{}, p);
  expect_handle_runs(seg, acoo, t, "aligned_coo");
  // Within the limits the profile's value runs as asked, without a note.
  const tuning::DeviceProfile fits = profile_from("{\"team_threads\": 1}");
  const SpmvHandle<std::decay_t<decltype(csr)>, exec_type> one(exec, csr, csr::basic{}, fits);
  EXPECT_EQ(one.policy().notes, "");
  EXPECT_EQ(one.describe().find("note:"), std::string::npos) << one.describe();
}

// A profile at the backend's largest team passes the selector unclamped,
// yet on GPUs a kernel's registers may allow fewer threads (Hybrid's COO
// kernel with 8 right-hand sides): the kernel runs with Kokkos'
// team_size_max instead, with every format and strategy right.
TEST(HandleLimits, KernelsRunWithinTheirRegisterLimits) {
  const exec_type exec;
  const int most = max_team_threads();
  const tuning::DeviceProfile p =
      profile_from("{\n  \"team_threads\": " + std::to_string(most) + "\n}\n");
  const Triplets<V, I> t = edge_matrix<V, I>("odd_rows_33x47_long");
  for_every_format_and_strategy(make_csr(t), [&](const auto& a, auto strategy,
                                                 const std::string& variant) {
    using M = std::decay_t<decltype(a)>;
    const SpmvHandle<M, exec_type> h(exec, a, strategy_of<M>{strategy}, p);
    expect_handle_runs(h, a, t, variant);
  });
}

/// The message of the invalid_parameter that `make` (making a handle with
/// a given policy) throws ("" if none): a forced launch is refused when the
/// handle is made, before anything is allocated or launched.
template <class Make>
std::string construction_error(const Make& make) {
  try {
    make();
  } catch (const invalid_parameter& e) {
    return e.what();
  }
  return "";
}

TEST(HandleLimits, GivenPolicyBeyondTheBackendIsAnError) {
  const exec_type exec;
  const Triplets<V, I> t = edge_matrix<V, I>("odd_rows_33x47_long");
  const auto csr = make_csr(t);
  using csr_handle = SpmvHandle<std::decay_t<decltype(csr)>, exec_type>;
  const auto profile = tuning::cached_profile_of(exec);
  const auto stats = tuning::analyze(exec, csr);
  const csr_handle selected(exec, csr, csr::basic{}, profile, stats);
  tuning::SpmvPolicy team = selected.policy();
  team.launches.at(0).team_size = max_team_threads() + 1;
  team.launches.at(0).vector_length = 1;
  const std::string team_error =
      construction_error([&] { csr_handle(exec, csr, csr::basic{}, profile, stats, team); });
  EXPECT_NE(team_error.find("team_size " + std::to_string(max_team_threads() + 1) +
                            " with 1 lane: the backend runs at most " +
                            std::to_string(max_team_threads())),
            std::string::npos)
      << team_error;
  EXPECT_NE(team_error.find("(Kokkos team_size_max)"), std::string::npos) << team_error;
  tuning::SpmvPolicy lanes = selected.policy();
  lanes.launches.at(0).team_size = 1;
  lanes.launches.at(0).vector_length = 2 * max_vector_length();
  const std::string lanes_error =
      construction_error([&] { csr_handle(exec, csr, csr::classical{}, profile, stats, lanes); });
  EXPECT_NE(lanes_error.find("vector_length " + std::to_string(2 * max_vector_length())),
            std::string::npos)
      << lanes_error;
  EXPECT_NE(lanes_error.find("(Kokkos vector_length_max)"), std::string::npos) << lanes_error;
  // CSR-k's team of row threads, forced past the backend's team.
  csrk::parameters kp;
  kp.k = 3;
  kp.super_row_size = 5;
  kp.super_super_row_size = 3;
  const auto k3 = to_csrk(csr, kp);
  const int rows_in_team = max_team_threads() + 1;
  EXPECT_NE(construction_error([&] {
              csrk_handle(exec, k3, forced_csrk_policy(3, rows_in_team, 1, rows_in_team));
            }).find("(Kokkos team_size_max)"),
            std::string::npos);
  // ELL's rows kernel with lanes per row, the same.
  const auto ell = to_ell(csr);
  using ell_handle = SpmvHandle<std::decay_t<decltype(ell)>, exec_type>;
  const auto ell_stats = tuning::analyze(exec, ell);
  tuning::SpmvPolicy wide = ell_handle(exec, ell, ell::rows{}, profile, ell_stats).policy();
  wide.launches.at(0).vector_length = 2;
  wide.launches.at(0).team_size = max_team_threads() + 1;
  EXPECT_NE(construction_error([&] { ell_handle(exec, ell, ell::rows{}, profile, ell_stats, wide); })
                .find("(Kokkos team_size_max)"),
            std::string::npos);
}

// A regular matrix whose few long rows would pad ELL to 5 slots per
// nonzero (rows of 9 and of 1 entry, one in ten long: variance 5.76, so
// 002's rule calls it regular) stays in Csr even where the profile
// converts every regular matrix; a band that ELL pads little still converts.
TEST(HandleLimits, AutomaticKeepsInCsrWhatEllWouldPadMuch) {
  const exec_type exec;
  // Without rule 0: a measured host's row may take SELL-P for the band.
  const tuning::DeviceProfile p = converting_profile();
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
  EXPECT_NE(hb.describe().find("ELL would store 5 > 3 slots per nonzero"), std::string::npos)
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
