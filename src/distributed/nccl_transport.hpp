// SPDX-License-Identifier: BSD-3-Clause
// The halo exchange over NCCL, device buffer to device buffer: the packed
// entries never leave the GPUs. Built with KOBALT_ENABLE_NCCL (CUDA builds
// whose CUDA has NCCL); one GPU per rank.
#pragma once

#include "../arch/arch.hpp"
#include "../compat.hpp"
#include "../errors.hpp"
#include "../scalar.hpp"
#include "fingerprint.hpp"
#include "gather.hpp"
#include "halo_plan.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kobalt::distributed {

namespace detail {

/// Throws kobalt::error naming the NCCL call `what` where it failed.
inline void nccl_check(ncclResult_t result, const char* what) {
  if (result != ncclSuccess)
    throw error(std::string("kobalt::distributed: ") + what + " failed: " + ncclGetErrorString(result));
}

/// NCCL's type for Value's real parts (a complex value moves as two).
template <class Value>
ncclDataType_t nccl_type() {
  return std::is_same_v<real_type_t<Value>, float> ? ncclFloat32 : ncclFloat64;
}

/// True where two ranks of `comm` run on the same device of the same host,
/// which NCCL refuses. Collective (one MPI_Allgather).
template <class ExecutionSpace>
bool ranks_share_a_device(MPI_Comm comm, const ExecutionSpace& exec) {
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  Fingerprint host;
  for (int i = 0; i < length; ++i) host.add(static_cast<unsigned char>(name[i]));
  const std::uint64_t mine[2] = {host.value(), static_cast<std::uint64_t>(arch::device_id(exec))};
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> devices;
  for (int r = 0; r < size; ++r) devices.emplace_back(all[2 * r], all[2 * r + 1]);
  std::sort(devices.begin(), devices.end());
  return std::adjacent_find(devices.begin(), devices.end()) != devices.end();
}

}  // namespace detail

/// One exchange at a time, as MpiTransport: enter(exec) orders a second
/// instance of the handle's own (side(), arch::urgent_instance of the setup
/// instance) after `exec`'s work so far; send(x) enqueues there the packing
/// and every receive and send (one NCCL group), so that the diagonal
/// product on `exec` runs meanwhile; work enqueued on side() after send()
/// sees the ghosts; finish(exec) orders `exec` after all of it and returns
/// the ghosts. The host never waits. side() has the greatest stream
/// priority so that its small kernels do not wait for the diagonal
/// product's last wave.
template <class Value, class Device, class ExecutionSpace>
class NcclTransport {
 public:
  /// Device-side buffers: the packed entries and the ghosts.
  using device_buffer = Kokkos::View<Value*, Device>;

  NcclTransport() = default;
  /// An NCCL communicator over the ranks of `comm` (its id broadcast from
  /// rank 0) and the buffers of `plan`, on `exec`. Collective; an NCCL
  /// failure throws kobalt::error on the ranks it reports it to.
  NcclTransport(const ExecutionSpace& exec, MPI_Comm comm, HaloPlan plan)
      : plan_(std::move(plan)), sends_are_runs_(plan_.sends_are_runs()),
        side_(arch::urgent_instance(exec)) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ncclUniqueId id{};
    if (rank == 0) detail::nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
    ncclComm_t made = nullptr;
    detail::nccl_check(ncclCommInitRank(&made, size, id, rank), "ncclCommInitRank");
    comm_ = std::shared_ptr<ncclComm>(made, [](ncclComm_t c) { ncclCommDestroy(c); });
    const auto sent = static_cast<std::size_t>(plan_.sent_entries());
    const auto received = static_cast<std::size_t>(plan_.received_entries());
    send_ = device_buffer(compat::uninitialized(exec, "kobalt::distributed::send"), sent);
    ghosts_ = device_buffer(compat::uninitialized(exec, "kobalt::distributed::ghosts"), received);
    send_index_ = Kokkos::View<std::int64_t*, Device>(
        compat::uninitialized(exec, "kobalt::distributed::send_index"), sent);
    Kokkos::deep_copy(exec, send_index_,
                      Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          plan_.send_index.data(), sent));
    exec.fence();  // plan_.send_index is copied from the host
    // NCCL connects peers at their first exchange, which is slow: paid here,
    // at setup, rather than by the first product.
    exchange(send_.data(), false);
    side_.fence();
  }

  /// "NCCL, device buffers".
  static std::string name() { return "NCCL, device buffers"; }
  /// The plan the exchange follows.
  const HaloPlan& plan() const { return plan_; }
  /// Host bytes held for staging: none.
  std::uint64_t staging_bytes() const { return 0; }

  /// True: the exchange is ordered on streams (side()), not by the host.
  static constexpr bool stream_ordered = true;
  /// The instance the exchange runs on.
  const ExecutionSpace& side() const { return side_; }
  /// The ghosts' buffer, written by the exchange on side().
  const device_buffer& ghosts() const { return ghosts_; }

  /// enter(exec), then send(x).
  template <class XView>
  void start(const ExecutionSpace& exec, const XView& x) {
    enter(exec);
    send(x);
  }
  /// Orders side()'s next work after `exec`'s work so far (x written, the
  /// previous product's reads of the buffers).
  void enter(const ExecutionSpace& exec) { entered_.order(exec, side_); }
  /// Enqueues on side() the packing of x's entries to send and the
  /// exchange. Where every neighbour's entries are a run of x in the
  /// buffers' memory, the sends read x itself and nothing is packed.
  template <class XView>
  void send(const XView& x) {
    if constexpr (std::is_same_v<typename XView::memory_space, typename Device::memory_space>) {
      if (sends_are_runs_ && x.stride(0) == 1) {
        exchange(x.data(), true);
        return;
      }
    }
    detail::gather(side_, "kobalt::distributed::pack", send_, x, send_index_);
    exchange(send_.data(), false);
  }

  /// Orders `exec`'s next work after everything on side() so far (the
  /// exchange, and what the caller enqueued there after it); returns the
  /// ghosts.
  const device_buffer& finish(const ExecutionSpace& exec) {
    received_.order(side_, exec);
    return ghosts_;
  }

 private:
  /// Every receive and send of the plan, one NCCL group on side(): the
  /// sends from `from`, which is x (runs: at their first positions) or the
  /// packed buffer.
  void exchange(const Value* from, bool runs) {
    const auto stream = arch::native_stream(side_);
    constexpr std::size_t parts = is_complex_v<Value> ? 2 : 1;
    using real = real_type_t<Value>;
    detail::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t i = 0; i < plan_.recv_ranks.size(); ++i)
      detail::nccl_check(
          ncclRecv(reinterpret_cast<real*>(ghosts_.data() + plan_.recv_offsets[i]),
                   parts * static_cast<std::size_t>(plan_.recv_offsets[i + 1] - plan_.recv_offsets[i]),
                   detail::nccl_type<Value>(), plan_.recv_ranks[i], comm_.get(), stream),
          "ncclRecv");
    for (std::size_t i = 0; i < plan_.send_ranks.size(); ++i)
      detail::nccl_check(
          ncclSend(reinterpret_cast<const real*>(
                       from + (runs ? plan_.send_index[plan_.send_offsets[i]] : plan_.send_offsets[i])),
                   parts * static_cast<std::size_t>(plan_.send_offsets[i + 1] - plan_.send_offsets[i]),
                   detail::nccl_type<Value>(), plan_.send_ranks[i], comm_.get(), stream),
          "ncclSend");
    detail::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }

  HaloPlan plan_;
  bool sends_are_runs_ = false;
  ExecutionSpace side_;
  std::shared_ptr<ncclComm> comm_;
  device_buffer send_, ghosts_;
  Kokkos::View<std::int64_t*, Device> send_index_;
  arch::stream_order<ExecutionSpace> entered_, received_;
};

}  // namespace kobalt::distributed
