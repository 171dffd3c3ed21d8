// SPDX-License-Identifier: BSD-3-Clause
// Which transport carries a distributed handle's halo: asked for by type
// (kobalt::distributed::transport::automatic, mpi, and nccl where built),
// resolved once at setup, the same way on every rank.
#pragma once

#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "collective_errors.hpp"
#include "gpu_aware_mpi.hpp"
#include "halo_plan.hpp"
#include "mpi_transport.hpp"
#if defined(KOBALT_HAVE_NCCL)
#include "nccl_transport.hpp"
#endif

#include <mpi.h>

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace kobalt::distributed {

namespace transport {
/// NCCL where Kobalt was built with it (KOBALT_ENABLE_NCCL), x lives in
/// device memory and every rank has a GPU of its own; MPI otherwise, on
/// device buffers where every rank's MPI reports itself GPU-aware.
struct automatic {};
/// MPI (MpiTransport): any MPI, any memory space. Device buffers go to MPI
/// as they are where `gpu_aware` says so, else staged through pinned host
/// buffers.
struct mpi {
  /// Whether MPI may read device buffers itself (ask: as it reports).
  distributed::gpu_aware gpu_aware = distributed::gpu_aware::ask;
};
#if defined(KOBALT_HAVE_NCCL)
/// NCCL between device buffers (NcclTransport); where it cannot run (host
/// memory, two ranks on one GPU) make_handle throws invalid_parameter.
struct nccl {};
/// A transport asked for.
using choice = std::variant<automatic, mpi, nccl>;
#else
/// A transport asked for.
using choice = std::variant<automatic, mpi>;
#endif
}  // namespace transport

namespace detail {

#if defined(KOBALT_HAVE_NCCL)
/// True where the NCCL transport can carry Device's buffers for
/// ExecutionSpace: device memory, and a backend with a native stream.
template <class Device, class ExecutionSpace>
inline constexpr bool nccl_fits =
    !MpiTransport<double, Device>::host_accessible && arch::has_native_stream<ExecutionSpace>::value;
template <class Value, class Device, class ExecutionSpace>
using transports = std::conditional_t<
    nccl_fits<Device, ExecutionSpace>,
    std::variant<MpiTransport<Value, Device>, NcclTransport<Value, Device, ExecutionSpace>>,
    std::variant<MpiTransport<Value, Device>>>;
#else
template <class Value, class Device, class ExecutionSpace>
using transports = std::variant<MpiTransport<Value, Device>>;
#endif

/// The transport `choice` resolves to for `plan`, over `comm` (the
/// handle's own). Collective; where NCCL was asked for and cannot run,
/// invalid_parameter on every rank.
template <class Value, class Device, class ExecutionSpace>
transports<Value, Device, ExecutionSpace> make_transport(const ExecutionSpace& exec, MPI_Comm comm,
                                                         HaloPlan plan,
                                                         const transport::choice& choice) {
#if defined(KOBALT_HAVE_NCCL)
  if constexpr (nccl_fits<Device, ExecutionSpace>) {
    if (!std::holds_alternative<transport::mpi>(choice)) {
      const bool shared = ranks_share_a_device(comm, exec);
      collectively(comm, [&] {
        if (shared && std::holds_alternative<transport::nccl>(choice))
          throw invalid_parameter("kobalt::distributed::make_handle: NCCL needs a GPU per rank, "
                                  "and two ranks share one; ask for transport::mpi");
      });
      if (!shared) return NcclTransport<Value, Device, ExecutionSpace>(exec, comm, std::move(plan));
    }
  } else {
    collectively(comm, [&] {
      if (std::holds_alternative<transport::nccl>(choice))
        throw invalid_parameter("kobalt::distributed::make_handle: NCCL carries device buffers "
                                "only; this matrix lives in host memory");
    });
  }
#endif
  const auto* asked = std::get_if<transport::mpi>(&choice);
  return MpiTransport<Value, Device>(exec, comm, std::move(plan), asked ? asked->gpu_aware : gpu_aware::ask);
}

}  // namespace detail
}  // namespace kobalt::distributed
