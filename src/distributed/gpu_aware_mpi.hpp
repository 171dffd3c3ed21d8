// SPDX-License-Identifier: BSD-3-Clause
// Whether MPI may be handed device pointers: what the MPI library reports at
// run time through its extensions (Open MPI's mpi-ext.h, MPICH's
// MPIX_GPU_query_support), or what the caller vouches for.
#pragma once

#include "../arch/arch.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace kobalt::distributed {

/// Whether MPI carries halos in device memory itself (transport::mpi).
enum class gpu_aware {
  ask,  ///< as the MPI library reports at run time; staged where it reports nothing
  yes,  ///< the caller vouches for it (an MPI that can but does not say so)
  no    ///< always staged through pinned host buffers
};

namespace detail {

/// True where this process's MPI library reports that it reads and writes
/// memory of `runtime` itself. Host memory is always true.
inline bool mpi_reports_gpu_aware(arch::device_runtime runtime) {
  switch (runtime) {
    case arch::device_runtime::none:
      return true;
    case arch::device_runtime::cuda:
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA && defined(MPIX_CUDA_AWARE_SUPPORT) && \
    MPIX_CUDA_AWARE_SUPPORT
      return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    {
      int supported = 0;
      return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS && supported;
    }
#else
      return false;
#endif
    case arch::device_runtime::hip:
#if defined(OMPI_HAVE_MPI_EXT_ROCM) && OMPI_HAVE_MPI_EXT_ROCM && defined(MPIX_ROCM_AWARE_SUPPORT) && \
    MPIX_ROCM_AWARE_SUPPORT
      return MPIX_Query_rocm_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_HIP)
    {
      int supported = 0;
      return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &supported) == MPI_SUCCESS && supported;
    }
#else
      return false;
#endif
  }
  return false;
}

/// Whether MPI reads MemorySpace's buffers itself under `choice`, the same
/// answer on every rank of `comm` (true only where every rank's MPI says
/// so). Collective where it asks.
template <class MemorySpace>
bool mpi_reads_memory(MPI_Comm comm, gpu_aware choice) {
  constexpr auto runtime = arch::memory<MemorySpace>::runtime;
  if (runtime == arch::device_runtime::none || choice == gpu_aware::yes) return true;
  if (choice == gpu_aware::no) return false;
  int mine = mpi_reports_gpu_aware(runtime) ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
  return all != 0;
}

}  // namespace detail
}  // namespace kobalt::distributed
