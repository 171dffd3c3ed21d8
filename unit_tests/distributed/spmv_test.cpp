// SPDX-License-Identifier: BSD-3-Clause
// The distributed product under mpiexec -n 1..4, on every rank against the
// sequential reference on the global matrix: edge matrices, rectangular
// ones, the default and user-given partitions, one rank against the local
// handle, update_values, reproducible mode, and the errors every rank must
// see. Every rank builds the same global triplets (fixed seeds) to check its
// own rows.
#include "fixtures/edge_matrices.hpp"
#include "fixtures/scalars.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/distributed/distributed.hpp>
#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace kobalt;
using kobalt::distributed::DistributedMatrix;
using kobalt::distributed::Partition;
using Device = kobalt::default_device;
using Exec = Device::execution_space;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// This rank's part of a global vector: the entries `p` gives `rank`, in order.
template <class V>
Kokkos::View<V*, Device> local_part(const std::vector<V>& global, const Partition& p, int rank) {
  const auto owned = p.owned(rank);
  Kokkos::View<V*, Device> v("v", owned.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < owned.size(); ++i) h(i) = global[static_cast<std::size_t>(owned[i])];
  Kokkos::deep_copy(v, h);
  return v;
}

/// Every rank-1 case of test::spmv_cases() through `h`, this rank's rows
/// against the reference on the global `t`.
template <class V, class I, class Handle>
void expect_matches_reference(Handle& h, const DistributedMatrix<V, I, Device>& a,
                              const Triplets<V, I>& t, const std::string& what) {
  const int rank = a.rank();
  test::Lcg rng(11 + static_cast<std::uint64_t>(t.rows + t.cols));
  for (const auto& c : test::spmv_cases()) {
    if (c.rhs != 0) continue;
    std::vector<V> xs(static_cast<std::size_t>(t.cols)), ys(static_cast<std::size_t>(t.rows));
    for (auto& v : xs) v = test::random_scalar<V>(rng);
    for (auto& v : ys) v = test::random_scalar<V>(rng);
    std::vector<V> y_in = ys;
    if (c.beta_zero())
      for (auto& v : y_in) v = test::nan_of<V>();
    const auto x = local_part(xs, a.col_partition(), rank);
    const auto y = local_part(y_in, a.row_partition(), rank);
    distributed::spmv(Exec(), h, c.alpha_as<V>(), a, x, c.beta_as<V>(), y);
    const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    const auto ref = reference_spmv(t, c.alpha_as<double>(), xs, c.beta_as<double>(), ys);
    const auto rows = a.row_partition().owned(rank);
    int failures = 0;
    for (std::size_t i = 0; i < rows.size() && failures < 5; ++i) {
      const auto g = static_cast<std::size_t>(rows[i]);
      if (!ref.template accepts<V>(g, static_cast<double>(yh(i)))) {
        ADD_FAILURE() << what << " rank " << rank << " alpha=" << c.alpha << " beta=" << c.beta
                      << ": y(" << g << ") = " << yh(i) << ", reference " << ref.y[g]
                      << ", tolerance " << ref.template tolerance<V>(g);
        ++failures;
      }
    }
  }
}

/// `t` scattered from rank 0 (the other ranks pass empty triplets), with
/// the given partitions or the defaults.
template <class V, class I>
DistributedMatrix<V, I, Device> scattered(const Triplets<V, I>& t,
                                          std::optional<Partition> rows = std::nullopt,
                                          std::optional<Partition> cols = std::nullopt) {
  return distributed::scatter_matrix<Device>(MPI_COMM_WORLD, 0,
                                             world_rank() == 0 ? t : Triplets<V, I>{}, rows, cols);
}

/// The edge matrix `name`, assembled.
template <class V, class I>
Triplets<V, I> edge_matrix(const std::string& name) {
  for (auto& m : test::edge_matrices<V, I>())
    if (m.name == name) {
      m.matrix.assemble();
      return m.matrix;
    }
  throw std::out_of_range("no edge matrix " + name);
}

/// A non-contiguous map over the world: index i to rank (7 i + 3) mod size.
Partition scattered_map(std::int64_t n) {
  std::vector<int> owners(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) owners[i] = static_cast<int>((7 * i + 3) % world_size());
  return Partition::map(owners, world_size());
}

template <class T>
class DistributedSpmv : public ::testing::Test {};
using DistributedTypes =
    ::testing::Types<test::Types<double, std::int32_t>, test::Types<float, std::int64_t>>;
TYPED_TEST_SUITE(DistributedSpmv, DistributedTypes, test::TypeNames);

TYPED_TEST(DistributedSpmv, EdgeMatricesDefaultPartition) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (auto& m : test::edge_matrices<V, I>()) {
    m.matrix.assemble();
    const auto a = scattered(m.matrix);
    auto h = distributed::make_handle(Exec(), a);
    expect_matches_reference(h, a, m.matrix, m.name);
  }
}

// Non-contiguous rows and x entries; rectangular matrices get a map of
// their own for x. Reproducible handles on these.
TYPED_TEST(DistributedSpmv, EdgeMatricesRowMapReproducible) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (auto& m : test::edge_matrices<V, I>()) {
    m.matrix.assemble();
    const auto a = scattered(m.matrix, scattered_map(m.matrix.rows), scattered_map(m.matrix.cols));
    auto h = distributed::make_handle(Exec(), a, kobalt::reproducible);
    EXPECT_TRUE(h.reproducible()) << m.name;
    expect_matches_reference(h, a, m.matrix, m.name + " (row map)");
  }
}

// The same bits on every apply of a reproducible handle.
TYPED_TEST(DistributedSpmv, ReproducibleGivesTheSameBits) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const std::string name : {"odd_rows_33x47_long", "odd_1029x1031"}) {
    const auto t = edge_matrix<V, I>(name);
    const auto a = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
    auto h = distributed::make_handle(Exec(), a, kobalt::reproducible);
    EXPECT_NE(h.describe().find("summation: fixed order"), std::string::npos) << h.describe();
    test::Lcg rng(5);
    std::vector<V> xs(static_cast<std::size_t>(t.cols)), ys(static_cast<std::size_t>(t.rows));
    for (auto& v : xs) v = test::random_scalar<V>(rng);
    for (auto& v : ys) v = test::random_scalar<V>(rng);
    const auto x = local_part(xs, a.col_partition(), a.rank());
    std::vector<std::vector<V>> results;
    for (int call = 0; call < 3; ++call) {
      const auto y = local_part(ys, a.row_partition(), a.rank());
      distributed::spmv(Exec(), h, V(0.75), a, x, V(-1.25), y);
      const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      results.emplace_back(yh.data(), yh.data() + yh.extent(0));
    }
    for (int call = 1; call < 3; ++call)
      EXPECT_EQ(0, std::memcmp(results[0].data(), results[call].data(), results[0].size() * sizeof(V)))
          << name << " call " << call;
  }
}

// Each rank alone (MPI_COMM_SELF) holds the whole matrix: the distributed
// product is the local automatic handle's, bit for bit.
TYPED_TEST(DistributedSpmv, OneRankEqualsTheLocalHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (auto m : test::edge_matrices<V, I>()) {
    m.matrix.assemble();
    const auto csr = make_csr<Device>(m.matrix);
    const auto rows = Partition::uniform(m.matrix.rows, 1);
    const DistributedMatrix<V, I, Device> a(MPI_COMM_SELF, csr, rows,
                                            Partition::uniform(m.matrix.cols, 1));
    auto h = distributed::make_handle(Exec(), a);
    EXPECT_TRUE(h.ghosts().empty()) << m.name;
    auto local = make_handle(Exec(), csr, kobalt::automatic{});
    test::Lcg rng(3);
    std::vector<V> xs(static_cast<std::size_t>(m.matrix.cols)), ys(static_cast<std::size_t>(m.matrix.rows));
    for (auto& v : xs) v = test::random_scalar<V>(rng);
    for (auto& v : ys) v = test::random_scalar<V>(rng);
    const auto x = local_part(xs, a.col_partition(), 0);
    const auto y1 = local_part(ys, rows, 0), y2 = local_part(ys, rows, 0);
    distributed::spmv(Exec(), h, V(1.5), a, x, V(0.5), y1);
    kobalt::spmv(Exec(), local, V(1.5), csr, x, V(0.5), y2);
    const auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    const auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    EXPECT_EQ(0, std::memcmp(h1.data(), h2.data(), h1.extent(0) * sizeof(V))) << m.name;
  }
}

// A matrix built by each rank from its own rows (no scatter), contiguous
// ranges from each rank's count; the describe() names the halo.
TYPED_TEST(DistributedSpmv, FromLocalRows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = edge_matrix<V, I>("odd_1029x1031");
  const int rank = world_rank(), size = world_size();
  // Uneven counts: rank r takes a share proportional to r + 1.
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(size) + 1, 0);
  for (int r = 0; r < size; ++r) offsets[r + 1] = t.rows * (r + 1) * (r + 2) / (size * (size + 1));
  Triplets<V, I> mine;
  mine.rows = static_cast<I>(offsets[rank + 1] - offsets[rank]);
  mine.cols = t.cols;
  for (std::size_t k = 0; k < t.val.size(); ++k)
    if (t.row[k] >= offsets[rank] && t.row[k] < offsets[rank + 1])
      mine.push_back(static_cast<I>(t.row[k] - offsets[rank]), t.col[k], t.val[k]);
  const auto rows = Partition::from_counts(MPI_COMM_WORLD, mine.rows);
  const DistributedMatrix<V, I, Device> a(MPI_COMM_WORLD, make_csr<Device>(mine), rows,
                                          Partition::uniform(t.cols, size));
  auto h = distributed::make_handle(Exec(), a, kobalt::automatic{10});
  const std::string d = h.describe();
  // MPI, or NCCL on GPUs where it is built and no two ranks share a device.
  EXPECT_TRUE(d.find("transport: MPI") != std::string::npos ||
              d.find("transport: NCCL") != std::string::npos)
      << d;
  EXPECT_NE(d.find("halo: sends " + std::to_string(h.plan().sent_entries())), std::string::npos) << d;
  EXPECT_EQ(h.received_bytes(), h.ghosts().size() * sizeof(V));
  if (size > 1) {
    EXPECT_GT(h.plan().received_entries(), 0) << d;
  }
  expect_matches_reference(h, a, t, "from local rows");
}

// MPI asked for by name: the same product, and describe() says so.
TYPED_TEST(DistributedSpmv, TransportMpiAskedFor) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = edge_matrix<V, I>("empty_rows_37x29");
  const auto a = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
  auto h = distributed::make_handle(Exec(), a, kobalt::automatic{}, distributed::transport::mpi{});
  EXPECT_EQ(h.transport().rfind("MPI", 0), 0u) << h.transport();
  EXPECT_NE(h.describe().find("transport: " + h.transport()), std::string::npos) << h.describe();
  expect_matches_reference(h, a, t, "transport::mpi");
}

// MPI on device buffers as gpu_aware says: staged where it says no, or asks
// and the MPI does not report itself GPU-aware; the buffers themselves
// otherwise. Host memory is never staged. The same product every way.
TYPED_TEST(DistributedSpmv, TransportMpiGpuAware) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using memory_space = Device::memory_space;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  const bool reported = distributed::detail::mpi_reports_gpu_aware(arch::memory<memory_space>::runtime);
  const auto t = edge_matrix<V, I>("empty_rows_37x29");
  const auto a = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
  for (const auto aware : {distributed::gpu_aware::ask, distributed::gpu_aware::no, distributed::gpu_aware::yes}) {
    // An MPI that cannot read device memory would crash on a device pointer.
    if (aware == distributed::gpu_aware::yes && !host && !reported) continue;
    auto h = distributed::make_handle(Exec(), a, kobalt::automatic{}, distributed::transport::mpi{aware});
    const bool staged =
        !host && (aware == distributed::gpu_aware::no || (aware == distributed::gpu_aware::ask && !reported));
    const std::string expected = host     ? "MPI, host buffers"
                                 : staged ? "MPI staged through pinned host buffers"
                                          : "MPI, device buffers (GPU-aware)";
    EXPECT_EQ(h.transport(), expected) << static_cast<int>(aware);
    EXPECT_EQ(h.staging_bytes() > 0, staged && h.plan().received_entries() > 0) << h.transport();
    expect_matches_reference(h, a, t, h.transport());
  }
}

// No ghosts (a diagonal), only ghosts (every entry half the matrix away),
// and ranks without rows (contiguous ranges, rank 0 and the last empty).
TYPED_TEST(DistributedSpmv, NoGhostsOnlyGhostsNoRows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const int size = world_size();
  const I n = 24;
  Triplets<V, I> diagonal, shifted;
  diagonal.rows = diagonal.cols = shifted.rows = shifted.cols = n;
  for (I i = 0; i < n; ++i) {
    diagonal.push_back(i, i, V(1) + V(i));
    shifted.push_back(i, (i + n / 2) % n, V(2) - V(i) / V(8));
  }
  shifted.assemble();
  {
    const auto a = scattered(diagonal, Partition::uniform(n, size));
    auto h = distributed::make_handle(Exec(), a);
    EXPECT_TRUE(h.ghosts().empty());
    EXPECT_NE(h.describe().find("no ghosts, not applied"), std::string::npos);
    expect_matches_reference(h, a, diagonal, "no ghosts");
  }
  {
    const auto a = scattered(shifted, Partition::uniform(n, size));
    auto h = distributed::make_handle(Exec(), a);
    if (size > 1) {
      EXPECT_EQ(h.diagonal_block().nnz(), 0);
    }
    expect_matches_reference(h, a, shifted, "only ghosts");
  }
  {
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(size) + 1, n);
    offsets[0] = 0;
    if (size > 1) offsets[1] = 0;  // rank 0 holds nothing
    for (int r = 2; r < size; ++r) offsets[r] = n * (r - 1) / (size - 1);
    const auto a = scattered(shifted, Partition::contiguous(offsets));
    auto h = distributed::make_handle(Exec(), a);
    expect_matches_reference(h, a, shifted, "ranks without rows");
  }
}

// New values for the same pattern: in other storage (update_values(exec,
// a)), then in place (update_values(exec)).
TYPED_TEST(DistributedSpmv, UpdateValues) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  auto t = edge_matrix<V, I>("odd_rows_33x47_long");
  const auto a = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
  auto h = distributed::make_handle(Exec(), a, kobalt::automatic{1000000});
  const auto& local = a.local();
  Kokkos::View<V*, Device> values("values", local.nnz());
  Kokkos::deep_copy(values, local.values());
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  for (int round = 1; round <= 2; ++round) {
    // Local entries are in (row, column) order, as are the global ones.
    for (std::size_t k = 0; k < vh.extent(0); ++k) vh(k) = vh(k) * V(2) + V(round);
    for (auto& v : t.val) v = v * V(2) + V(round);
    Kokkos::deep_copy(values, vh);
    const Csr<V, I, Device> renewed(local.rows(), local.cols(), local.row_ptr(),
                                    local.col_indices(), values);
    const DistributedMatrix<V, I, Device> b(MPI_COMM_WORLD, renewed, a.row_partition(),
                                            a.col_partition());
    if (round == 1) h.update_values(Exec(), b);
    else h.update_values(Exec());
    expect_matches_reference(h, b, t, "update_values round " + std::to_string(round));
  }
}

/// A tridiagonal n x n matrix with distinct values, assembled.
template <class V, class I>
Triplets<V, I> tridiagonal(I n) {
  Triplets<V, I> t;
  t.rows = t.cols = n;
  for (I i = 0; i < n; ++i)
    for (I j = std::max<I>(0, i - 1); j <= std::min<I>(n - 1, i + 1); ++j)
      t.push_back(i, j, V(1) + V((3 * i + j) % 7) / V(4));
  t.assemble();
  return t;
}

TYPED_TEST(DistributedSpmv, CompressedOffDiagonalRows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // Contiguous rows of a band: at most two rows per rank touch a ghost, so
  // the off-diagonal block keeps only those.
  auto t = tridiagonal<V, I>(60);
  const auto a = scattered(t);
  for (const bool fixed_order : {false, true}) {
    auto h = fixed_order ? distributed::make_handle(Exec(), a, kobalt::reproducible)
                         : distributed::make_handle(Exec(), a);
    const std::string what = fixed_order ? "reproducible" : "automatic";
    const auto touching = static_cast<std::int64_t>(h.off_diagonal_rows().extent(0));
    EXPECT_EQ(h.off_diagonal_block().rows(), touching) << what;
    if (world_size() > 1) {
      EXPECT_GE(touching, 1) << what;
      EXPECT_LE(touching, 2) << what;
      EXPECT_NE(h.describe().find("(compressed: only the rows that touch a ghost)"), std::string::npos)
          << h.describe();
    } else {
      EXPECT_EQ(touching, 0) << what;
    }
    expect_matches_reference(h, a, t, "compressed rows, " + what);
    // Both blocks' products alone add up to the whole.
    const auto x = local_part(std::vector<V>(t.cols, V(1)), a.col_partition(), a.rank());
    Kokkos::View<V*, Device> y("y", a.local_rows()), parts("parts", a.local_rows());
    distributed::spmv(Exec(), h, V(1), a, x, V(0), y);
    Kokkos::View<V*, Device> ghosts("ghosts", h.ghosts().size());
    Kokkos::deep_copy(ghosts, V(1));
    h.multiply_diagonal(Exec(), V(1), x, V(0), parts);
    h.add_off_diagonal(Exec(), V(1), ghosts, parts);
    const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    const auto ph = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parts);
    for (std::size_t i = 0; i < yh.extent(0); ++i) EXPECT_EQ(yh(i), ph(i)) << what << " row " << i;
  }
}

// A send can read x where it lies only where each neighbour's entries are
// consecutive x positions.
TEST(HaloPlan, SendsAreRuns) {
  distributed::HaloPlan p;
  p.send_offsets = {0};
  EXPECT_TRUE(p.sends_are_runs()) << "no sends";
  p.send_ranks = {1, 3};
  p.send_offsets = {0, 3, 5};
  p.send_index = {4, 5, 6, 0, 1};  // each a run; the two runs apart
  EXPECT_TRUE(p.sends_are_runs());
  p.send_index = {4, 5, 7, 0, 1};
  EXPECT_FALSE(p.sends_are_runs()) << "a gap in the first neighbour's entries";
  p.send_index = {4, 5, 6, 1, 0};
  EXPECT_FALSE(p.sends_are_runs()) << "the second neighbour's entries out of order";
}

// x strided (every second entry of a larger View) and x contiguous give the
// same bits: the sends of a band's slabs are runs of x, which the NCCL
// transport reads in place where x's entries are adjacent and packs where
// they are not.
TYPED_TEST(DistributedSpmv, StridedAndContiguousX) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = tridiagonal<V, I>(60);
  const auto a = scattered(t);
  auto h = distributed::make_handle(Exec(), a, kobalt::reproducible);
  EXPECT_TRUE(h.plan().sends_are_runs());
  std::vector<V> xs(static_cast<std::size_t>(t.cols));
  for (std::size_t j = 0; j < xs.size(); ++j) xs[j] = V(static_cast<int>(j % 13) + 1) / V(4);
  const auto x = local_part(xs, a.col_partition(), a.rank());
  Kokkos::View<V**, Kokkos::LayoutRight, Device> wide("wide", a.local_cols(), 2);
  const auto strided = Kokkos::subview(wide, Kokkos::ALL, 0);
  Kokkos::deep_copy(strided, x);
  Kokkos::View<V*, Device> y("y", a.local_rows()), ys("ys", a.local_rows());
  distributed::spmv(Exec(), h, V(1), a, x, V(0), y);
  distributed::spmv(Exec(), h, V(1), a, strided, V(0), ys);
  const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const auto ysh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ys);
  for (std::size_t i = 0; i < yh.extent(0); ++i) EXPECT_EQ(yh(i), ysh(i)) << "row " << i;
  expect_matches_reference(h, a, t, "tridiagonal, reproducible");
}

/// Runs `f` and expects exception E on this rank (and so on every rank).
template <class E, class F>
void expect_collective_throw(F&& f, const std::string& phrase, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": nothing thrown on rank " << world_rank();
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos)
        << what << ": '" << e.what() << "' lacks '" << phrase << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": another exception on rank " << world_rank() << ": " << e.what();
  }
}

// The exchange alone gives each ghost its owner's x entry (row-mapped, so
// that ghosts come from several ranks), and the two products on those
// ghosts are the apply, bit for bit in reproducible mode. A wrong x on one
// rank is refused on every rank.
TYPED_TEST(DistributedSpmv, ExchangeGivesEachGhostItsOwnersEntry) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const int rank = world_rank(), size = world_size();
  for (auto& m : test::edge_matrices<V, I>()) {
    m.matrix.assemble();
    const auto& t = m.matrix;
    const auto a = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
    auto h = distributed::make_handle(Exec(), a, kobalt::reproducible);
    std::vector<V> xs(static_cast<std::size_t>(t.cols));
    for (std::size_t j = 0; j < xs.size(); ++j) xs[j] = V(static_cast<int>(j % 97) + 1);
    const auto x = local_part(xs, a.col_partition(), rank);
    const auto ghosts = h.exchange(Exec(), a, x);
    const auto gh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ghosts);
    ASSERT_EQ(gh.extent(0), h.ghosts().size()) << m.name;
    for (std::size_t k = 0; k < gh.extent(0); ++k)
      EXPECT_EQ(gh(k), xs[static_cast<std::size_t>(h.ghosts()[k])]) << m.name << " ghost " << k;
    Kokkos::View<V*, Device> y("y", a.local_rows()), parts("parts", a.local_rows());
    distributed::spmv(Exec(), h, V(1), a, x, V(0), y);
    h.multiply_diagonal(Exec(), V(1), x, V(0), parts);
    h.add_off_diagonal(Exec(), V(1), h.exchange(Exec(), a, x), parts);
    const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    const auto ph = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), parts);
    for (std::size_t i = 0; i < yh.extent(0); ++i) EXPECT_EQ(yh(i), ph(i)) << m.name << " row " << i;
  }
  const auto t = edge_matrix<V, I>("diagonal_65");
  const auto a = scattered(t);
  auto h = distributed::make_handle(Exec(), a);
  Kokkos::View<V*, Device> x("x", a.local_cols() + (rank == size - 1 ? 1 : 0));
  expect_collective_throw<dimension_mismatch>([&] { (void)h.exchange(Exec(), a, x); },
                                              "entries of x", "an exchange of a wrong x");
}

TYPED_TEST(DistributedSpmv, ErrorsOnEveryRank) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const int rank = world_rank(), size = world_size();
  const auto t = edge_matrix<V, I>("diagonal_65");
  expect_collective_throw<invalid_parameter>(
      [&] { scattered(t, Partition::uniform(t.rows - 1, size)); }, "the partitions cover 64 rows",
      "a partition that does not cover the rows");
  expect_collective_throw<invalid_parameter>(
      [&] { scattered(t, Partition::uniform(t.rows, size + 1)); }, "communicator has",
      "a partition over more ranks than the communicator");
  std::vector<int> owners(static_cast<std::size_t>(t.rows), 0);
  owners[5] = size;
  expect_collective_throw<invalid_parameter>([&] { Partition::map(owners, size); },
                                             "index 5 is given to rank", "a map naming rank size");
  // Ranks that disagree on the number of columns.
  if (size > 1) {
    const I cols = static_cast<I>(t.cols + (rank == 0 ? 1 : 0));
    Triplets<V, I> mine;
    mine.cols = cols;
    mine.rows = static_cast<I>(Partition::uniform(t.rows, size).count(rank));
    expect_collective_throw<dimension_mismatch>(
        [&] {
          DistributedMatrix<V, I, Device>(MPI_COMM_WORLD, make_csr<Device>(mine),
                                          Partition::uniform(t.rows, size),
                                          Partition::uniform(cols, size));
        },
        "disagree on the global shape", "ranks that disagree on sizes");
  }
  // The last rank's local Csr has one row too many.
  {
    Triplets<V, I> mine;
    mine.cols = t.cols;
    mine.rows = static_cast<I>(Partition::uniform(t.rows, size).count(rank) + (rank == size - 1));
    expect_collective_throw<dimension_mismatch>(
        [&] {
          DistributedMatrix<V, I, Device>(MPI_COMM_WORLD, make_csr<Device>(mine),
                                          Partition::uniform(t.rows, size));
        },
        "rank " + std::to_string(size - 1) + ": ", "a local Csr with the wrong row count");
  }
  // A wrong x on the last rank only: every rank throws, and the next
  // product still runs.
  const auto a = scattered(t);
  auto h = distributed::make_handle(Exec(), a);
  Kokkos::View<V*, Device> x("x", a.local_cols() + (rank == size - 1 ? 1 : 0));
  Kokkos::View<V*, Device> y("y", a.local_rows());
  expect_collective_throw<dimension_mismatch>(
      [&] { distributed::spmv(Exec(), h, V(1), a, x, V(0), y); }, "entries of x",
      "a wrong x on one rank");
  expect_matches_reference(h, a, t, "after a refused apply");
  // y in x's storage on rank 0 only (square blocks: x and y have one length).
  Kokkos::View<V*, Device> x_ok("x", a.local_cols());
  expect_collective_throw<invalid_parameter>(
      [&] { distributed::spmv(Exec(), h, V(1), a, x_ok, V(0), rank == 0 ? x_ok : y); },
      "overlaps x", "y in x's storage on one rank");
  decltype(h) moved = std::move(h);
  EXPECT_TRUE(h.empty());
  expect_collective_throw<invalid_parameter>(
      [&] { distributed::spmv(Exec(), h, V(1), a, x, V(0), y); }, "the handle is empty",
      "an empty handle");
}

// A few small matrices of the shared set, square and rectangular, each read
// by every rank (for the reference) and scattered from rank 0.
template <class T>
class DistributedSpmvShared : public test::NeedsSharedMatrices<> {};
TYPED_TEST_SUITE(DistributedSpmvShared, DistributedTypes, test::TypeNames);

TYPED_TEST(DistributedSpmvShared, SmallMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const char* name : {"nos7", "lp_e226", "hangGlider_2", "ca-GrQc"}) {
    const auto& t = test::shared_matrix<V, I>(name);
    const auto a = scattered(t);
    auto h = distributed::make_handle(Exec(), a);
    expect_matches_reference(h, a, t, name);
    const auto b = scattered(t, scattered_map(t.rows), scattered_map(t.cols));
    auto hb = distributed::make_handle(Exec(), b, kobalt::reproducible);
    expect_matches_reference(hb, b, t, std::string(name) + " (row map)");
  }
}

}  // namespace
