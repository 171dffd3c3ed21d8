// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels as a peer in kobalt-bench: KokkosSparse::spmv on the same
// CSR arrays (no copy, same ordering), so the comparison is side by side.
//   kk        KokkosSparse::spmv with KK's own kernel (SPMV_NATIVE: no TPL,
//             so a CUDA build does not silently measure cuSPARSE)
//   kk:merge  KK's merge-path kernel (SPMV_NATIVE_MERGE_PATH; Kokkos Kernels 4.2+)
// With Kokkos Kernels 4.2+ a persistent SPMVHandle keeps KK's setup out of
// the timed calls; Debian's 3.4 takes the "native" algorithm through Controls.
// --mode goes to KokkosSparse::spmv as its mode ("T": KK's own transpose
// kernel on A's arrays, no copy). Before Kokkos Kernels 4.4 the transpose
// kernels scaled y by beta = 0 instead of zeroing it, so NaN in y survived
// (kokkos-kernels#2166, fixed by #2188 in 4.4.00): there y is zeroed on the
// same instance and KK adds into it with beta = 1, which is what 4.4 does
// itself (one pass over y either way).
#pragma once

#include "../format_registry.hpp"

#include <kobalt/interop/kokkos_sparse.hpp>

#include <KokkosKernels_config.h>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <memory>
#include <string>
#include <type_traits>

#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40200
#define KOBALT_BENCH_KK_HANDLE 1
#else
#include <KokkosKernels_Controls.hpp>
#endif
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40400
#define KOBALT_BENCH_KK_BETA_ZERO_TRANSPOSE_OK 1
#endif

namespace kobalt::bench {

template <class View, class Value, class Index, class Device>
Operator<View> prepare_kokkos_kernels(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                      Mode mode) {
  spec.only({});
  const char* const kk_mode = mode_name(mode);  // "N", "T", "C" or "H": KK's own letters
  using exec = typename Device::execution_space;
#if defined(KOBALT_BENCH_KK_BETA_ZERO_TRANSPOSE_OK)
  const bool zero_y_first = false;
#else
  const bool zero_y_first = transposes(mode);  // kokkos-kernels#2166, see above
#endif
  const std::string mode_text =
      mode == Mode::none
          ? std::string()
          : std::string(", mode ") + kk_mode +
                (zero_y_first ? " (y zeroed, then beta = 1: before 4.4 beta = 0 kept NaN of y, "
                                "kokkos-kernels#2166)"
                              : "");
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
  op.strategy += mode_text;
  op.apply = [m, handle, kk_mode, zero_y_first](const View& x, const View& y) {
    if (zero_y_first) {
      Kokkos::deep_copy(exec(), y, scalar(0));
      KokkosSparse::spmv(handle.get(), kk_mode, scalar(1), m, x, scalar(1), y);
    } else {
      KokkosSparse::spmv(handle.get(), kk_mode, scalar(1), m, x, scalar(0), y);
    }
  };
#else
  if (!spec.word.empty() && spec.word != "native")
    throw std::invalid_argument("kk: algorithm '" + spec.word +
                                "' needs Kokkos Kernels 4.2 or newer (this one knows: native)");
  op.strategy = "native";
  op.strategy += mode_text;
  op.apply = [m, kk_mode, zero_y_first](const View& x, const View& y) {
    KokkosKernels::Experimental::Controls controls;
    controls.setParameter("algorithm", "native");
    if (zero_y_first) {
      Kokkos::deep_copy(exec(), y, scalar(0));
      KokkosSparse::spmv(controls, kk_mode, scalar(1), m, x, scalar(1), y);
    } else {
      KokkosSparse::spmv(controls, kk_mode, scalar(1), m, x, scalar(0), y);
    }
  };
#endif
  return op;
}

}  // namespace kobalt::bench
