// SPDX-License-Identifier: BSD-3-Clause
// The halo exchange over MPI. MPI reads and writes the buffers themselves on
// host memory, and on device memory where the MPI is GPU-aware
// (gpu_aware_mpi.hpp); otherwise the packed entries are copied to pinned host
// buffers on the caller's instance, sent, received into pinned buffers and
// copied back.
#pragma once

#include "../compat.hpp"
#include "gather.hpp"
#include "gpu_aware_mpi.hpp"
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
/// A transport for another path (NCCL) offers the same three
/// calls and name().
///
/// The receive buffers alternate between exchanges: the receives of one are
/// posted before `exec` has surely finished reading the previous one's
/// ghosts (its copy to the device, or the off-diagonal product), and the
/// fence in start() orders each buffer's reuse two exchanges later.
/// "Direct" below: MPI reads and writes send_ and ghosts_ themselves.
template <class Value, class Device>
class MpiTransport {
 public:
  /// Device-side buffers: the packed entries and the ghosts.
  using device_buffer = Kokkos::View<Value*, Device>;
  /// True where the buffers are host memory, which any MPI reads.
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Device::memory_space>::accessible;
  /// Pinned host buffers for staging.
  using host_buffer = Kokkos::View<Value*, compat::host_pinned_space>;

  MpiTransport() = default;
  /// Buffers for `plan` over `comm` (a communicator the caller keeps for the
  /// transport's lifetime), allocated on `exec`; MPI reads device memory
  /// itself where `aware` says so (detail::mpi_reads_memory). Collective.
  template <class ExecutionSpace>
  MpiTransport(const ExecutionSpace& exec, MPI_Comm comm, HaloPlan plan, gpu_aware aware = gpu_aware::ask)
      : comm_(comm),
        plan_(std::move(plan)),
        direct_(host_accessible || detail::mpi_reads_memory<typename Device::memory_space>(comm, aware)) {
    const auto sent = static_cast<std::size_t>(plan_.sent_entries());
    const auto received = static_cast<std::size_t>(plan_.received_entries());
    send_ = device_buffer(compat::uninitialized(exec, "kobalt::distributed::send"), sent);
    for (int i = 0; i < (direct_ ? 2 : 1); ++i)
      ghosts_[i] = device_buffer(compat::uninitialized(exec, "kobalt::distributed::ghosts"), received);
    send_index_ = Kokkos::View<std::int64_t*, Device>(
        compat::uninitialized(exec, "kobalt::distributed::send_index"), sent);
    Kokkos::deep_copy(exec, send_index_,
                      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          plan_.send_index.data(), sent));
    if (!direct_) {
      send_host_ = host_buffer(compat::uninitialized("kobalt::distributed::send_host"), sent);
      for (auto& r : recv_host_)
        r = host_buffer(compat::uninitialized("kobalt::distributed::recv_host"), received);
    }
    requests_.resize(plan_.send_ranks.size() + plan_.recv_ranks.size());
    exec.fence();  // plan_.send_index is copied from the host
  }

  /// False: the host waits for the messages (finish).
  static constexpr bool stream_ordered = false;

  /// "MPI, host buffers", "MPI, device buffers (GPU-aware)" or "MPI staged
  /// through pinned host buffers".
  std::string name() const {
    if (host_accessible) return "MPI, host buffers";
    return direct_ ? "MPI, device buffers (GPU-aware)" : "MPI staged through pinned host buffers";
  }
  /// The plan the exchange follows.
  const HaloPlan& plan() const { return plan_; }
  /// Host bytes held for staging (0 where MPI uses the device buffers).
  std::uint64_t staging_bytes() const {
    return direct_ ? 0 : (send_host_.extent(0) + 2 * recv_host_[0].extent(0)) * sizeof(Value);
  }

  /// Posts the receives, packs x's entries to send on `exec`, waits for
  /// them (MPI needs them in memory) and posts the sends.
  template <class ExecutionSpace, class XView>
  void start(const ExecutionSpace& exec, const XView& x) {
    std::size_t n = 0;
    parity_ = 1 - parity_;
    Value* const receive = direct_ ? ghosts_[parity_].data() : recv_host_[parity_].data();
    for (std::size_t i = 0; i < plan_.recv_ranks.size(); ++i)
      MPI_Irecv(receive + plan_.recv_offsets[i],
                static_cast<int>(plan_.recv_offsets[i + 1] - plan_.recv_offsets[i]),
                detail::mpi_type<Value>(), plan_.recv_ranks[i], tag, comm_, &requests_[n++]);
    detail::gather(exec, "kobalt::distributed::pack", send_, x, send_index_);
    if (!direct_) Kokkos::deep_copy(exec, send_host_, send_);
    exec.fence();
    const Value* const send = direct_ ? send_.data() : send_host_.data();
    for (std::size_t i = 0; i < plan_.send_ranks.size(); ++i)
      MPI_Isend(send + plan_.send_offsets[i],
                static_cast<int>(plan_.send_offsets[i + 1] - plan_.send_offsets[i]),
                detail::mpi_type<Value>(), plan_.send_ranks[i], tag, comm_, &requests_[n++]);
  }

  /// Waits for every message, then copies the ghosts to the device on
  /// `exec` where they were staged; returns them.
  template <class ExecutionSpace>
  const device_buffer& finish(const ExecutionSpace& exec) {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    if (direct_) return ghosts_[parity_];
    Kokkos::deep_copy(exec, ghosts_[0], recv_host_[parity_]);
    return ghosts_[0];
  }

 private:
  // The handle's own duplicate of the user's communicator carries only
  // halos, one exchange at a time, so one tag suffices.
  static constexpr int tag = 0;

  MPI_Comm comm_ = MPI_COMM_NULL;
  HaloPlan plan_;
  device_buffer send_;
  bool direct_ = true;
  device_buffer ghosts_[2];  // the second only where MPI writes them (direct)
  Kokkos::View<std::int64_t*, Device> send_index_;
  host_buffer send_host_;  // staging, where not direct
  host_buffer recv_host_[2];
  int parity_ = 0;  // the receive buffer of the exchange under way
  std::vector<MPI_Request> requests_;
};

}  // namespace kobalt::distributed
