// SPDX-License-Identifier: BSD-3-Clause
// The distributed product's time and its split into phases, each timed
// alone on every rank of the communicator together; a repetition's time is
// the slowest rank's.
#pragma once

#include "../timing.hpp"

#include <kobalt/distributed/distributed.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kobalt::bench::distributed {

namespace kd = kobalt::distributed;

/// Times `run` on every rank of `comm` together: each repetition starts
/// after a barrier, makes o.batch calls, fences the device and reads the
/// host clock; the slowest rank's time per call counts. Every rank sees
/// the same times, so all stop after the same repetition.
template <class Run>
Timing time_together(MPI_Comm comm, const TimingOptions& o, const Run& run) {
  for (int i = 0; i < o.warmup; ++i) run();
  Kokkos::fence();
  std::vector<double> t;
  double spent = 0;
  const int calls = std::max(o.batch, 1);
  while (more_reps(o, t.size(), spent)) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int c = 0; c < calls; ++c) run();
    Kokkos::fence();
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    t.push_back(slowest / calls);
    spent += slowest;
  }
  return summarize(std::move(t));
}

/// One distributed product's time and its phases (seconds per apply).
struct Split {
  Timing apply;         ///< kd::spmv: the whole product
  Timing pack;          ///< the gather of the x entries to send
  Timing exchange;      ///< pack, send, receive, unpack; no product
  Timing diagonal;      ///< the diagonal block's product alone
  Timing off_diagonal;  ///< the off-diagonal block's product alone (0: no ghosts)
  Timing local;         ///< both products, no exchange

  /// The part of the exchange that the product hid: (local + exchange -
  /// apply) / exchange, in [0, 1]; 1 without an exchange.
  double hidden() const {
    if (exchange.median <= 0) return 1;
    return std::clamp((local.median + exchange.median - apply.median) / exchange.median, 0.0, 1.0);
  }
};

/// Times `h`'s product of `a` on x into y, and each phase alone (the
/// exchange on the handle's own transport). Collective.
template <class Handle, class Matrix, class XView, class YView>
Split time_split(MPI_Comm comm, const TimingOptions& o, Handle& h, const Matrix& a, const XView& x,
                 const YView& y) {
  using value = typename Matrix::value_type;
  using device = typename Matrix::device_type;
  const Kokkos::DefaultExecutionSpace exec;
  Split s;
  s.apply = time_together(comm, o, [&] { kd::spmv(exec, h, value(1), a, x, value(0), y); });

  Kokkos::View<value*, device> ghosts("kobalt::bench::ghosts", h.ghosts().size());
  Kokkos::deep_copy(ghosts, value(1));
  const auto diagonal = [&] { h.multiply_diagonal(exec, value(1), x, value(0), y); };
  const auto off_diagonal = [&] { h.add_off_diagonal(exec, value(1), ghosts, y); };
  s.diagonal = time_together(comm, o, diagonal);
  s.off_diagonal = time_together(comm, o, off_diagonal);
  s.local = time_together(comm, o, [&] {
    diagonal();
    off_diagonal();
  });

  const kd::HaloPlan& plan = h.plan();
  Kokkos::View<value*, device> send("kobalt::bench::send", plan.sent_entries());
  Kokkos::View<std::int64_t*, device> send_index("kobalt::bench::send_index", plan.sent_entries());
  Kokkos::deep_copy(send_index, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                    plan.send_index.data(), plan.send_index.size()));
  s.pack = time_together(comm, o, [&] {
    kd::detail::gather(exec, "kobalt::bench::pack", send, x, send_index);
  });

  s.exchange = time_together(comm, o, [&] { (void)h.exchange(exec, a, x); });
  return s;
}

}  // namespace kobalt::bench::distributed
