// SPDX-License-Identifier: BSD-3-Clause
// The warp-level primitives of src/arch/ on random segment patterns, each
// lane's result against a sequential reference: segmented_scan,
// segment_end, any, ballot and the three shuffles (of real values and of
// Kokkos::complex<double> and <float>, which move as two parts), for every logical width
// W the backend has (1 on hosts, 1..32 on CUDA, 1..64 on HIP), on patterns
// with every lane in one row, every lane its own row, runs of random length
// that cross from one warp into the next, and only the first n lanes holding
// a row (n not a power of two; the rest hold "no row", as past a chunk's end).
#include <gtest/gtest.h>

#include <kobalt/arch/arch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;
constexpr int none = -1;

using cdouble = Kokkos::complex<double>;
using cfloat = Kokkos::complex<float>;

/// The complex value of lane i: real part v, imaginary part 3 - v (small
/// integers: sums are exact in any order, and the parts differ).
KOKKOS_INLINE_FUNCTION cdouble complex_of(double v) { return cdouble(v, 3.0 - v); }

/// What each lane saw: the scan of (value, value + 1), segment_end, any,
/// ballot and its first lane, and the shuffles of the value by one lane up,
/// one down and from lane 0; the scan and the shuffles of complex_of(value)
/// (complex<double>; from lane 0 as complex<float>).
struct LaneResults {
  Kokkos::View<double*> scan0, scan1, up, down, first;
  Kokkos::View<cdouble*> cscan, cup, cdown;
  Kokkos::View<cfloat*> cfirst;
  Kokkos::View<int*> end, any, first_odd;
  Kokkos::View<std::uint64_t*> ballot;
  explicit LaneResults(std::size_t n)
      : scan0("scan0", n), scan1("scan1", n), up("up", n), down("down", n), first("first", n),
        cscan("cscan", n), cup("cup", n), cdown("cdown", n), cfirst("cfirst", n),
        end("end", n), any("any", n), first_odd("first_odd", n), ballot("ballot", n) {}
};

template <int W>
struct LanesFunctor {
  using member = Kokkos::TeamPolicy<exec_type>::member_type;
  using L = arch::lanes<exec_type>;
  Kokkos::View<const int*> key;
  Kokkos::View<const double*> value;
  LaneResults out;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t warp =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      const std::int64_t i = warp * W + lane;
      const int k = key(i);
      double v[2] = {value(i), value(i) + 1.0};
      arch::segmented_scan<exec_type, W>(lane, k, v);
      out.scan0(i) = v[0];
      out.scan1(i) = v[1];
      out.end(i) = arch::segment_end<exec_type, W>(lane, k) ? 1 : 0;
      // The vote: does any lane hold a key that is odd (none counts as odd)?
      const bool odd = (k & 1) != 0;
      out.any(i) = L::template any<W>(odd) ? 1 : 0;
      const std::uint64_t bits = L::template ballot<W>(odd);
      out.ballot(i) = bits;
      out.first_odd(i) = bits != 0 ? L::first_lane(bits) : -1;
      out.up(i) = L::template shfl_up<W>(value(i), 1);
      out.down(i) = L::template shfl_down<W>(value(i), 1);
      out.first(i) = L::template shfl<W>(value(i), 0);
      const cdouble c = complex_of(value(i));
      cdouble cv[1] = {c};
      arch::segmented_scan<exec_type, W>(lane, k, cv);
      out.cscan(i) = cv[0];
      out.cup(i) = L::template shfl_up<W>(c, 1);
      out.cdown(i) = L::template shfl_down<W>(c, 1);
      out.cfirst(i) = L::template shfl<W>(cfloat(static_cast<float>(c.real()),
                                                 static_cast<float>(c.imag())), 0);
    });
  }
};

/// Keys of `warps` warps of W lanes for one pattern.
std::vector<int> pattern_keys(const std::string& pattern, int W, int warps, std::mt19937& rng) {
  const std::size_t n = static_cast<std::size_t>(W) * warps;
  std::vector<int> keys(n);
  if (pattern == "one_row") {
    for (auto& k : keys) k = 7;
  } else if (pattern == "own_rows") {
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(2 * i);
  } else if (pattern == "random_runs") {
    // Runs of 1..2W lanes: many cross from one warp into the next.
    int row = 0;
    std::uniform_int_distribution<int> run(1, 2 * W);
    for (std::size_t i = 0; i < n;) {
      const int len = run(rng);
      for (int j = 0; j < len && i < n; ++j) keys[i++] = row;
      row += 1 + static_cast<int>(rng() % 3);  // gaps: empty rows between
    }
  } else {  // "first_lanes": per warp, the first 1..W lanes hold rows, then none
    std::uniform_int_distribution<int> active(1, W);
    int row = 0;
    for (int w = 0; w < warps; ++w) {
      const int n_active = w == 0 ? (W > 5 ? 5 : W) : active(rng);
      for (int l = 0; l < W; ++l) {
        if (l < n_active && l % 3 == 0) ++row;
        keys[static_cast<std::size_t>(w) * W + l] = l < n_active ? row : none;
      }
    }
  }
  return keys;
}

/// Lanes of l's run up to and including l (the scan of value + 1 adds one per lane).
double count_in_run(const std::vector<int>& keys, std::size_t base, int l) {
  int c = 0;
  for (int j = l; j >= 0 && keys[base + j] == keys[base + l]; --j) ++c;
  return c;
}

template <int W>
void check_width(const std::string& pattern) {
  constexpr int warps = 9;
  const std::size_t n = static_cast<std::size_t>(W) * warps;
  std::mt19937 rng(1234 + W);
  const std::vector<int> keys = pattern_keys(pattern, W, warps, rng);
  std::vector<double> values(n);
  std::uniform_int_distribution<int> small(-8, 8);
  for (auto& v : values) v = small(rng);  // integers: sums are exact in any order

  Kokkos::View<int*> key("key", n);
  Kokkos::View<double*> value("value", n);
  auto kh = Kokkos::create_mirror_view(key);
  auto vh = Kokkos::create_mirror_view(value);
  for (std::size_t i = 0; i < n; ++i) {
    kh(i) = keys[i];
    vh(i) = values[i];
  }
  Kokkos::deep_copy(key, kh);
  Kokkos::deep_copy(value, vh);
  LaneResults out(n);
  // Three warps per team: the team threads of one team share a hardware warp
  // where W < 32, so the lane masks are exercised.
  // (Host backends run one lane per team thread and, on Serial, one thread per team.)
  const int team = W <= 16 && arch::warp_width(exec_type()) > 1 ? 3 : 1;
  const int league = (warps + team - 1) / team;
  Kokkos::parallel_for("lanes_test", Kokkos::TeamPolicy<exec_type>(league, team, W),
                       LanesFunctor<W>{key, value, out});
  Kokkos::fence();
  auto host = [](const auto& v) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v); };
  const auto scan0 = host(out.scan0), scan1 = host(out.scan1), up = host(out.up),
             down = host(out.down), first = host(out.first);
  const auto cscan = host(out.cscan), cup = host(out.cup), cdown = host(out.cdown);
  const auto cfirst = host(out.cfirst);
  const auto end = host(out.end), any = host(out.any);
  const auto ballot = host(out.ballot);
  const auto first_odd = host(out.first_odd);

  const std::string what = pattern + " W=" + std::to_string(W);
  // The team launches whole teams; warps past `warps` are not checked.
  for (int w = 0; w < warps; ++w) {
    const std::size_t base = static_cast<std::size_t>(w) * W;
    bool any_odd = false;
    std::uint64_t bits = 0;
    int lowest_odd = -1;
    for (int l = 0; l < W; ++l) {
      if ((keys[base + l] & 1) != 0) {
        if (!any_odd) lowest_odd = l;
        any_odd = true;
        bits |= std::uint64_t(1) << l;
      }
    }
    double run = 0;
    for (int l = 0; l < W; ++l) {
      const std::size_t i = base + l;
      const bool starts = l == 0 || keys[i - 1] != keys[i];
      run = starts ? values[i] : run + values[i];
      const bool ends = l == W - 1 || keys[i + 1] != keys[i];
      EXPECT_EQ(scan0(i), run) << what << " warp " << w << " lane " << l;
      EXPECT_EQ(scan1(i), run + count_in_run(keys, base, l))
          << what << " warp " << w << " lane " << l;
      EXPECT_EQ(end(i), ends ? 1 : 0) << what << " warp " << w << " lane " << l;
      EXPECT_EQ(any(i), any_odd ? 1 : 0) << what << " warp " << w << " lane " << l;
      EXPECT_EQ(ballot(i), bits) << what << " warp " << w << " lane " << l;
      EXPECT_EQ(first_odd(i), lowest_odd) << what << " warp " << w << " lane " << l;
      // Out-of-range sources give the lane's own value (CUDA's rule, and the host's).
      EXPECT_EQ(up(i), l >= 1 ? values[i - 1] : values[i]) << what << " lane " << l;
      EXPECT_EQ(down(i), l + 1 < W ? values[i + 1] : values[i]) << what << " lane " << l;
      EXPECT_EQ(first(i), values[base]) << what << " lane " << l;
      // Complex: the real parts sum the run, the imaginary parts 3 per lane less it.
      EXPECT_EQ(cscan(i), cdouble(run, 3 * count_in_run(keys, base, l) - run))
          << what << " complex scan, warp " << w << " lane " << l;
      EXPECT_EQ(cup(i), complex_of(l >= 1 ? values[i - 1] : values[i])) << what << " lane " << l;
      EXPECT_EQ(cdown(i), complex_of(l + 1 < W ? values[i + 1] : values[i]))
          << what << " lane " << l;
      EXPECT_EQ(cfirst(i), cfloat(static_cast<float>(values[base]),
                                  static_cast<float>(3 - values[base])))
          << what << " lane " << l;
    }
  }
}

template <int W>
void check_widths_up_to(int widest) {
  if (W > widest) return;
  for (const std::string pattern : {"one_row", "own_rows", "random_runs", "first_lanes"})
    check_width<W>(pattern);
  if constexpr (W < arch::lanes<exec_type>::max_width) check_widths_up_to<2 * W>(widest);
}

TEST(Lanes, EveryPrimitiveMatchesTheSequentialReference) {
  const int widest = arch::warp_width(exec_type());
  EXPECT_LE(widest, arch::lanes<exec_type>::max_width);
  check_widths_up_to<1>(widest);
}

TEST(Lanes, WithLaneWidthPicksTheWarpWidth) {
  int seen = 0;
  arch::with_lane_width(exec_type(), [&](auto w) { seen = decltype(w)::value; });
  EXPECT_EQ(seen, arch::warp_width(exec_type()));
}

}  // namespace
}  // namespace kobalt::test
