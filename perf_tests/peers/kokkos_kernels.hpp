// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels as a peer in kobalt-bench: KokkosSparse::spmv on the same
// CSR arrays (no copy, same ordering), so the comparison is side by side.
//   kk        KokkosSparse::spmv with KK's own kernel (SPMV_NATIVE: no TPL,
//             so a CUDA build does not silently measure cuSPARSE)
//   kk:merge  KK's merge-path kernel (SPMV_NATIVE_MERGE_PATH; Kokkos Kernels 4.2+)
// With Kokkos Kernels 4.2+ a persistent SPMVHandle keeps KK's setup out of
// the timed calls; Debian's 3.4 takes the "native" algorithm through Controls.
#pragma once

#include "../format_registry.hpp"

#include <kobalt/interop/kokkos_sparse.hpp>

#include <KokkosKernels_config.h>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <memory>
#include <type_traits>

#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40200
#define KOBALT_BENCH_KK_HANDLE 1
#else
#include <KokkosKernels_Controls.hpp>
#endif

namespace kobalt::bench {

template <class View, class Value, class Index, class Device>
Operator<View> prepare_kokkos_kernels(const FormatSpec& spec, const Csr<Value, Index, Device>& a) {
  spec.only({});
  const auto m = to_kokkos_crs(a);  // shares a's arrays
  using scalar = typename View::non_const_value_type;
  Operator<View> op;
  op.bytes = a.bytes();
  op.stored = a.stored();
#if defined(KOBALT_BENCH_KK_HANDLE)
  KokkosSparse::SPMVAlgorithm algorithm = KokkosSparse::SPMV_NATIVE;
  if (spec.word == "merge") algorithm = KokkosSparse::SPMV_NATIVE_MERGE_PATH;
  else if (!spec.word.empty() && spec.word != "native")
    throw std::invalid_argument("kk: algorithm '" + spec.word + "' is unknown (known: native, merge)");
  using matrix = std::remove_const_t<decltype(m)>;
  using handle_t =
      KokkosSparse::SPMVHandle<typename Device::execution_space, matrix, View, View>;
  auto handle = std::make_shared<handle_t>(algorithm);
  op.strategy = KokkosSparse::get_spmv_algorithm_name(algorithm);
  op.apply = [m, handle](const View& x, const View& y) {
    KokkosSparse::spmv(handle.get(), "N", scalar(1), m, x, scalar(0), y);
  };
#else
  if (!spec.word.empty() && spec.word != "native")
    throw std::invalid_argument("kk: algorithm '" + spec.word +
                                "' needs Kokkos Kernels 4.2 or newer (this one knows: native)");
  op.strategy = "native";
  op.apply = [m](const View& x, const View& y) {
    KokkosKernels::Experimental::Controls controls;
    controls.setParameter("algorithm", "native");
    KokkosSparse::spmv(controls, "N", scalar(1), m, x, scalar(0), y);
  };
#endif
  return op;
}

}  // namespace kobalt::bench
