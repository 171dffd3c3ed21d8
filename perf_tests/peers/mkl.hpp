// SPDX-License-Identifier: BSD-3-Clause
// Intel MKL as a CPU peer in kobalt-bench (-DKOBALT_ENABLE_MKL=ON, host
// builds only): MKL's inspector-executor SpMV on a CSR handle made over
// Kobalt's own arrays (no copy, same ordering), its hint and optimisation
// done in setup. Linked against the LP64 interface (MKL_INT is 32 bits), so
// int32 indices only; the threading layer is chosen by CMake (GNU OpenMP
// for an OpenMP Kokkos, sequential otherwise) and named in the strategy.
#pragma once

#include "../format_registry.hpp"

#include <mkl_service.h>
#include <mkl_spblas.h>
#include <mkl_version.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#if !defined(KOBALT_BENCH_MKL_THREADING)
#define KOBALT_BENCH_MKL_THREADING "unknown threading"
#endif

namespace kobalt::bench {

inline const char* mkl_status_name(sparse_status_t status) {
  switch (status) {
    case SPARSE_STATUS_SUCCESS: return "SPARSE_STATUS_SUCCESS";
    case SPARSE_STATUS_NOT_INITIALIZED: return "SPARSE_STATUS_NOT_INITIALIZED";
    case SPARSE_STATUS_ALLOC_FAILED: return "SPARSE_STATUS_ALLOC_FAILED";
    case SPARSE_STATUS_INVALID_VALUE: return "SPARSE_STATUS_INVALID_VALUE";
    case SPARSE_STATUS_EXECUTION_FAILED: return "SPARSE_STATUS_EXECUTION_FAILED";
    case SPARSE_STATUS_INTERNAL_ERROR: return "SPARSE_STATUS_INTERNAL_ERROR";
    case SPARSE_STATUS_NOT_SUPPORTED: return "SPARSE_STATUS_NOT_SUPPORTED";
  }
  return "an unknown status";
}

inline void mkl_check(sparse_status_t status, const char* call) {
  if (status != SPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("MKL: ") + call + " returned " + mkl_status_name(status) +
                             " (" + std::to_string(static_cast<int>(status)) + ")");
}

/// The calls the hint announces: more than kobalt-bench's default warm-up
/// and repetitions (3 + 200 + the checked call), so MKL may spend as much on
/// mkl_sparse_optimize as a long-running solver would let it.
inline constexpr MKL_INT mkl_expected_calls = 1000;

/// "mkl": mkl_sparse_?_create_csr over the CSR arrays (rows_start = row_ptr,
/// rows_end = row_ptr + 1), mkl_sparse_set_mv_hint (NON_TRANSPOSE, general
/// matrix, mkl_expected_calls) and mkl_sparse_optimize in setup, then
/// mkl_sparse_?_mv with alpha = 1, beta = 0. Rank-2 x and y (--rhs K,
/// LayoutLeft): mkl_sparse_set_mm_hint and mkl_sparse_?_mm on column-major
/// dense matrices with the Views' leading dimensions. MKL runs on as many
/// threads as Kokkos' host space (mkl_set_num_threads in setup). `mode` T or
/// H: SPARSE_OPERATION_TRANSPOSE (CONJUGATE_TRANSPOSE for complex H) in the
/// hint and every call, on the same handle (whatever mkl_sparse_optimize
/// builds for it counts as setup).
template <class View, class Value, class Index, class Device>
Operator<View> prepare_mkl(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                           int rhs_columns, Mode mode) {
  static_assert(std::is_same_v<typename View::non_const_value_type, Value>,
                "mkl peer: vectors must hold the matrix's value type");
  static_assert(std::is_same_v<Value, double> || std::is_same_v<Value, float>,
                "mkl peer: float or double values");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename Device::memory_space>::accessible,
                "mkl peer: the matrix must live in host memory (CMake refuses GPU builds)");
  spec.only({});
  if (!spec.word.empty()) throw std::invalid_argument("mkl: variant '" + spec.word + "' is unknown (mkl has none)");
  constexpr bool many = View::rank != 1;
  if constexpr (!std::is_same_v<Index, MKL_INT>) {
    (void)a, (void)rhs_columns, (void)mode;
    // Not a bad spec: this index type cannot run (an error row per input).
    throw std::runtime_error("mkl: this kobalt-bench links MKL's LP64 interface (MKL_INT of " +
                             std::to_string(8 * sizeof(MKL_INT)) +
                             " bits), which cannot take these indices: --index int32 only");
  } else {
    constexpr bool is_double = std::is_same_v<Value, double>;
    mkl_set_num_threads(Kokkos::DefaultHostExecutionSpace().concurrency());
    // MKL takes non-const pointers but does not write the arrays.
    auto* row_ptr = const_cast<MKL_INT*>(a.row_ptr().data());
    auto* cols = const_cast<MKL_INT*>(a.col_indices().data());
    auto* values = const_cast<Value*>(a.values().data());
    sparse_matrix_t raw = nullptr;
    sparse_status_t created;
    if constexpr (is_double)
      created = mkl_sparse_d_create_csr(&raw, SPARSE_INDEX_BASE_ZERO, a.rows(), a.cols(), row_ptr,
                                        row_ptr + 1, cols, values);
    else
      created = mkl_sparse_s_create_csr(&raw, SPARSE_INDEX_BASE_ZERO, a.rows(), a.cols(), row_ptr,
                                        row_ptr + 1, cols, values);
    // Owned before the status is checked, so nothing leaks on any failure.
    const std::shared_ptr<sparse_matrix> handle(raw, [](sparse_matrix_t m) {
      if (m) (void)mkl_sparse_destroy(m);
    });
    mkl_check(created, is_double ? "mkl_sparse_d_create_csr" : "mkl_sparse_s_create_csr");
    matrix_descr descr;
    descr.type = SPARSE_MATRIX_TYPE_GENERAL;
    descr.mode = SPARSE_FILL_MODE_FULL;  // ignored for a general matrix
    descr.diag = SPARSE_DIAG_NON_UNIT;
    // For real values C is A and H is A^T; MKL has no conjugate-only operation.
    sparse_operation_t operation = SPARSE_OPERATION_NON_TRANSPOSE;
    const Mode applied = applied_mode<Value>(mode);
    if (applied == Mode::transpose) operation = SPARSE_OPERATION_TRANSPOSE;
    else if (applied == Mode::conjugate_transpose) operation = SPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    else if (applied == Mode::conjugate)
      throw peer_lacks("mkl: --mode C: MKL has no conjugate-only operation (N, T or H)");
    if constexpr (many) {
      mkl_check(mkl_sparse_set_mm_hint(handle.get(), operation, descr, SPARSE_LAYOUT_COLUMN_MAJOR,
                                       rhs_columns, mkl_expected_calls),
                "mkl_sparse_set_mm_hint");
    } else {
      (void)rhs_columns;
      mkl_check(mkl_sparse_set_mv_hint(handle.get(), operation, descr, mkl_expected_calls),
                "mkl_sparse_set_mv_hint");
    }
    mkl_check(mkl_sparse_optimize(handle.get()), "mkl_sparse_optimize");

    const int threads = mkl_get_max_threads();
    Operator<View> op;
    op.strategy = std::string(many ? "csr mm column-major" : "csr mv") + ", hint " +
                  std::to_string(mkl_expected_calls) + " calls, optimized; MKL " +
                  std::to_string(__INTEL_MKL__) + "." + std::to_string(__INTEL_MKL_MINOR__) + "." +
                  std::to_string(__INTEL_MKL_UPDATE__) + " LP64 " + KOBALT_BENCH_MKL_THREADING +
                  ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    if (operation == SPARSE_OPERATION_TRANSPOSE) op.strategy += ", SPARSE_OPERATION_TRANSPOSE";
    else if (operation == SPARSE_OPERATION_CONJUGATE_TRANSPOSE)
      op.strategy += ", SPARSE_OPERATION_CONJUGATE_TRANSPOSE";
    op.bytes = a.bytes();
    op.stored = a.stored();
    // `keep`: the arrays the handle points at live as long as the operator.
    op.apply = [handle, descr, operation, keep = a](const View& x, const View& y) {
      if constexpr (many) {
        const auto columns = static_cast<MKL_INT>(x.extent(1));
        const auto ldx = static_cast<MKL_INT>(x.stride(1));
        const auto ldy = static_cast<MKL_INT>(y.stride(1));
        if constexpr (is_double)
          mkl_check(mkl_sparse_d_mm(operation, 1.0, handle.get(), descr, SPARSE_LAYOUT_COLUMN_MAJOR,
                                    x.data(), columns, ldx, 0.0, y.data(), ldy),
                    "mkl_sparse_d_mm");
        else
          mkl_check(mkl_sparse_s_mm(operation, 1.0f, handle.get(), descr, SPARSE_LAYOUT_COLUMN_MAJOR,
                                    x.data(), columns, ldx, 0.0f, y.data(), ldy),
                    "mkl_sparse_s_mm");
      } else if constexpr (is_double) {
        mkl_check(mkl_sparse_d_mv(operation, 1.0, handle.get(), descr, x.data(), 0.0, y.data()),
                  "mkl_sparse_d_mv");
      } else {
        mkl_check(mkl_sparse_s_mv(operation, 1.0f, handle.get(), descr, x.data(), 0.0f, y.data()),
                  "mkl_sparse_s_mv");
      }
    };
    return op;
  }
}

}  // namespace kobalt::bench
