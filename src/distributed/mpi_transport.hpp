// SPDX-License-Identifier: BSD-3-Clause
// The halo exchange over MPI through host memory: on host memory spaces MPI
// reads and writes the buffers themselves; on device memory spaces the packed
// entries are copied to pinned host buffers on the caller's instance, sent,
// received into pinned buffers and copied back (no GPU-aware MPI needed).
#pragma once

#include "../compat.hpp"
#include "gather.hpp"
#include "halo_plan.hpp"
#include "mpi_types.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kobalt::distributed {

/// One exchange at a time: start(exec, x) posts the receives, packs the
/// entries to send on `exec`, and sends them; finish(exec) waits and returns
/// the ghost vector (the off-diagonal block's x), ready in `exec`'s order.
/// A transport for another path (NCCL, GPU-aware MPI) offers the same three
/// calls and name().
///
/// The receive buffers alternate between exchanges: the receives of one are
/// posted before `exec` has surely finished reading the previous one's
/// ghosts (its copy to the device, or the off-diagonal product), and the
/// fence in start() orders each buffer's reuse two exchanges later.
template <class Value, class Device>
class MpiTransport {
 public:
  /// Device-side buffers: the packed entries and the ghosts.
  using device_buffer = Kokkos::View<Value*, Device>;
  /// True where MPI can read the device buffers directly (host memory).
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Device::memory_space>::accessible;
  /// Where the buffers MPI reads and writes live.
  using host_buffer =
      std::conditional_t<host_accessible, device_buffer, Kokkos::View<Value*, compat::host_pinned_space>>;

  MpiTransport() = default;
  /// Buffers for `plan` over `comm` (a communicator the caller keeps for the
  /// transport's lifetime), allocated on `exec`.
  template <class ExecutionSpace>
  MpiTransport(const ExecutionSpace& exec, MPI_Comm comm, HaloPlan plan)
      : comm_(comm), plan_(std::move(plan)) {
    const auto sent = static_cast<std::size_t>(plan_.sent_entries());
    const auto received = static_cast<std::size_t>(plan_.received_entries());
    send_ = device_buffer(compat::uninitialized(exec, "kobalt::distributed::send"), sent);
    for (int i = 0; i < (host_accessible ? 2 : 1); ++i)
      ghosts_[i] = device_buffer(compat::uninitialized(exec, "kobalt::distributed::ghosts"), received);
    send_index_ = Kokkos::View<std::int64_t*, Device>(
        compat::uninitialized(exec, "kobalt::distributed::send_index"), sent);
    Kokkos::deep_copy(exec, send_index_,
                      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          plan_.send_index.data(), sent));
    if constexpr (host_accessible) {
      send_host_ = send_;
      for (int i = 0; i < 2; ++i) recv_host_[i] = ghosts_[i];
    } else {
      send_host_ = host_buffer(compat::uninitialized("kobalt::distributed::send_host"), sent);
      for (auto& r : recv_host_)
        r = host_buffer(compat::uninitialized("kobalt::distributed::recv_host"), received);
    }
    requests_.resize(plan_.send_ranks.size() + plan_.recv_ranks.size());
    exec.fence();  // plan_.send_index is copied from the host
  }

  /// False: the host waits for the messages (finish).
  static constexpr bool stream_ordered = false;

  /// "MPI, host buffers" or "MPI staged through pinned host buffers".
  static std::string name() {
    return host_accessible ? "MPI, host buffers" : "MPI staged through pinned host buffers";
  }
  /// The plan the exchange follows.
  const HaloPlan& plan() const { return plan_; }
  /// Host bytes held for staging (0 where MPI uses the device buffers).
  std::uint64_t staging_bytes() const {
    return host_accessible ? 0
                           : (send_host_.extent(0) + 2 * recv_host_[0].extent(0)) * sizeof(Value);
  }

  /// Posts the receives, packs x's entries to send on `exec`, waits for
  /// them (MPI needs them in memory) and posts the sends.
  template <class ExecutionSpace, class XView>
  void start(const ExecutionSpace& exec, const XView& x) {
    std::size_t n = 0;
    parity_ = 1 - parity_;
    for (std::size_t i = 0; i < plan_.recv_ranks.size(); ++i)
      MPI_Irecv(recv_host_[parity_].data() + plan_.recv_offsets[i],
                static_cast<int>(plan_.recv_offsets[i + 1] - plan_.recv_offsets[i]),
                detail::mpi_type<Value>(), plan_.recv_ranks[i], tag, comm_, &requests_[n++]);
    detail::gather(exec, "kobalt::distributed::pack", send_, x, send_index_);
    if constexpr (!host_accessible) Kokkos::deep_copy(exec, send_host_, send_);
    exec.fence();
    for (std::size_t i = 0; i < plan_.send_ranks.size(); ++i)
      MPI_Isend(send_host_.data() + plan_.send_offsets[i],
                static_cast<int>(plan_.send_offsets[i + 1] - plan_.send_offsets[i]),
                detail::mpi_type<Value>(), plan_.send_ranks[i], tag, comm_, &requests_[n++]);
  }

  /// Waits for every message, then copies the ghosts to the device on
  /// `exec` where they were staged; returns them.
  template <class ExecutionSpace>
  const device_buffer& finish(const ExecutionSpace& exec) {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    if constexpr (!host_accessible) {
      Kokkos::deep_copy(exec, ghosts_[0], recv_host_[parity_]);
      return ghosts_[0];
    } else {
      (void)exec;
      return ghosts_[parity_];
    }
  }

 private:
  // The handle's own duplicate of the user's communicator carries only
  // halos, one exchange at a time, so one tag suffices.
  static constexpr int tag = 0;

  MPI_Comm comm_ = MPI_COMM_NULL;
  HaloPlan plan_;
  device_buffer send_;
  device_buffer ghosts_[2];  // the second only where MPI writes them (host memory)
  Kokkos::View<std::int64_t*, Device> send_index_;
  host_buffer send_host_;
  host_buffer recv_host_[2];
  int parity_ = 0;  // the receive buffer of the exchange under way
  std::vector<MPI_Request> requests_;
};

}  // namespace kobalt::distributed
