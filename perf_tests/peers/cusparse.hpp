// SPDX-License-Identifier: BSD-3-Clause
// cuSPARSE as a peer in kobalt-bench: cusparseSpMV on the same CSR arrays
// (no copy, same ordering), with cusparseSpMV_preprocess done in setup; for
// several right-hand sides (--rhs K, column-major x and y) cusparseSpMM with
// cusparseSpMM_preprocess. --mode T/H: opA = CUSPARSE_OPERATION_TRANSPOSE /
// CONJUGATE_TRANSPOSE on the same arrays (no copy), in every call.
#pragma once

#include "../format_registry.hpp"

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kobalt::bench {

inline void cusparse_check(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE: ") + what + ": " +
                             cusparseGetErrorString(status));
}

/// cuSPARSE's opA for `mode`: for real values C is NON_TRANSPOSE and H is
/// TRANSPOSE (as Kokkos Kernels' cuSPARSE path maps them); cuSPARSE has no
/// conjugate-only operation, so complex C cannot run (an error row).
template <class Value>
cusparseOperation_t cusparse_operation(Mode mode) {
  switch (applied_mode<Value>(mode)) {
    case Mode::none: return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case Mode::transpose: return CUSPARSE_OPERATION_TRANSPOSE;
    case Mode::conjugate_transpose: return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    case Mode::conjugate: break;
  }
  throw peer_lacks("cusparse: --mode C: cuSPARSE has no conjugate-only opA (N, T or H)");
}

inline const char* cusparse_operation_name(cusparseOperation_t op) {
  switch (op) {
    case CUSPARSE_OPERATION_NON_TRANSPOSE: return "NON_TRANSPOSE";
    case CUSPARSE_OPERATION_TRANSPOSE: return "TRANSPOSE";
    case CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE: return "CONJUGATE_TRANSPOSE";
  }
  return "an unknown operation";
}

/// Handle, descriptors and work buffer of one prepared cusparseSpMV.
struct CusparsePlan {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  void* buffer = nullptr;
  cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_ALG_DEFAULT;
  cusparseSpMMAlg_t mm_algorithm = CUSPARSE_SPMM_ALG_DEFAULT;
  cudaDataType value_type = CUDA_R_64F;
  cusparseOperation_t op_a = CUSPARSE_OPERATION_NON_TRANSPOSE;  ///< --mode; opB is always N
  ~CusparsePlan() {
    if (buffer) cudaFree(buffer);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
  }
};

/// "cusparse" (CSR, CUSPARSE_SPMV_ALG_DEFAULT), "cusparse:csr_alg2"
/// (CUSPARSE_SPMV_CSR_ALG2), "cusparse:coo" (CUSPARSE_SPMV_COO_ALG1) and
/// "cusparse:sell" (Sliced-ELL, CUSPARSE_SPMV_SELL_ALG1, slices of 32: the
/// vendor counterpart of SELL-P; Kobalt's Sellp layout with b = 32, t = 1 is
/// exactly cuSPARSE's, so the same arrays are handed over). Every variant
/// runs cusparseSpMV_preprocess in setup and on Kokkos' CUDA stream.
/// Rank-2 x and y (--rhs K): cusparseSpMM on column-major dense matrices,
/// CUSPARSE_SPMM_ALG_DEFAULT, CSR_ALG2 and COO_ALG1 for the three first
/// variants (SpMM has no Sliced-ELL). `mode` T or H: opA = TRANSPOSE or
/// CONJUGATE_TRANSPOSE in the buffer size, preprocess and every call (opB
/// stays NON_TRANSPOSE); a status other than success names the variant and
/// opA (an error row: cuSPARSE refusing an algorithm with that opA), except
/// a preprocess cuSPARSE does not support with that opA, which is skipped
/// and said so in the strategy.
/// Complex values run as CUDA_C_32F / CUDA_C_64F: Kokkos::complex<R> is
/// two R's, real then imaginary, as cuComplex / cuDoubleComplex.
template <class View, class Value, class Index, class Device>
Operator<View> prepare_cusparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                int rhs_columns, Mode mode) {
  static_assert(std::is_same_v<typename View::non_const_value_type, Value>,
                "cusparse peer: vectors must hold the matrix's value type");
  spec.only({});
  constexpr bool many = View::rank != 1;
  (void)rhs_columns;
  {
    auto plan = std::make_shared<CusparsePlan>();
    static_assert(sizeof(Value) == (is_complex_v<Value> ? 2 : 1) * sizeof(real_type_t<Value>),
                  "cusparse peer: a complex value is its two parts, nothing more");
    if constexpr (is_complex_v<Value>)
      plan->value_type = std::is_same_v<real_type_t<Value>, double> ? CUDA_C_64F : CUDA_C_32F;
    else
      plan->value_type = std::is_same_v<Value, double> ? CUDA_R_64F : CUDA_R_32F;
    plan->op_a = cusparse_operation<Value>(mode);
    const bool transposed = plan->op_a != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cusparseIndexType_t index_type =
        sizeof(Index) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
    cusparse_check(cusparseCreate(&plan->handle), "create");
    cusparse_check(cusparseSetStream(plan->handle, Kokkos::Cuda().cuda_stream()), "set stream");
    // Arrays the descriptor points at, kept alive by the operator.
    std::shared_ptr<void> keep;
    std::uint64_t bytes = a.bytes();
    std::int64_t stored = a.stored();
    const std::string variant = spec.word.empty() ? "csr_default" : spec.word;
    if (variant == "csr_default" || variant == "csr_alg2") {
      plan->algorithm = variant == "csr_alg2" ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT;
      plan->mm_algorithm = variant == "csr_alg2" ? CUSPARSE_SPMM_CSR_ALG2 : CUSPARSE_SPMM_ALG_DEFAULT;
      cusparse_check(cusparseCreateCsr(&plan->matrix, a.rows(), a.cols(), a.nnz(),
                                       (void*)a.row_ptr().data(), (void*)a.col_indices().data(),
                                       (void*)a.values().data(), index_type, index_type,
                                       CUSPARSE_INDEX_BASE_ZERO, plan->value_type),
                     "create CSR");
      keep = std::make_shared<Csr<Value, Index, Device>>(a);
    } else if (variant == "coo") {
      auto coo = std::make_shared<Coo<Value, Index, Device>>(to_coo(a));
      plan->algorithm = CUSPARSE_SPMV_COO_ALG1;
      plan->mm_algorithm = CUSPARSE_SPMM_COO_ALG1;
      cusparse_check(cusparseCreateCoo(&plan->matrix, a.rows(), a.cols(), a.nnz(),
                                       (void*)coo->row_indices().data(),
                                       (void*)coo->col_indices().data(),
                                       (void*)coo->values().data(), index_type,
                                       CUSPARSE_INDEX_BASE_ZERO, plan->value_type),
                     "create COO");
      bytes = coo->bytes();
      stored = coo->stored();
      keep = coo;
    } else if (variant == "sell" && many) {
      // Not a bad spec: the format cannot run this --rhs (an error row per input).
      throw peer_lacks("cusparse:sell: cusparseSpMM has no Sliced-ELL (--rhs 1 only)");
    } else if (variant == "sell") {
      sellp_params p;
      p.slice_size = 32;
      p.stride_factor = 1;
      auto sell = std::make_shared<Sellp<Value, Index, Device>>(to_sellp(a, p));
      plan->algorithm = CUSPARSE_SPMV_SELL_ALG1;
      cusparse_check(cusparseCreateSlicedEll(&plan->matrix, a.rows(), a.cols(), a.nnz(),
                                             sell->stored(), 32,
                                             (void*)sell->slice_sets().data(),
                                             (void*)sell->col_indices().data(),
                                             (void*)sell->values().data(), index_type, index_type,
                                             CUSPARSE_INDEX_BASE_ZERO, plan->value_type),
                     "create Sliced-ELL");
      bytes = sell->bytes();
      stored = sell->stored();
      keep = sell;
    } else {
      throw std::invalid_argument("cusparse: variant '" + spec.word +
                                  "' is unknown (known: csr_alg2, coo, sell)");
    }
    // Failures name the variant and, with --mode, the operation cuSPARSE refused.
    const std::string context =
        "cusparse:" + variant +
        (transposed ? std::string(" with opA = ") + cusparse_operation_name(plan->op_a) : "");
    auto check = [&context](cusparseStatus_t status, const char* what) {
      cusparse_check(status, (context + ": " + what).c_str());
    };
    // Dense operands (vectors, or column-major K-column matrices) described
    // per call; in setup only for the buffer size and the preprocessing.
    struct Dense {
      cusparseDnVecDescr_t vec = nullptr;
      cusparseDnMatDescr_t mat = nullptr;
      explicit Dense(const View& v, cudaDataType type) {
        if constexpr (many) {
          cusparse_check(cusparseCreateDnMat(&mat, v.extent(0), v.extent(1),
                                             static_cast<std::int64_t>(v.stride(1)),
                                             (void*)v.data(), type, CUSPARSE_ORDER_COL),
                         "dense matrix");
        } else {
          cusparse_check(cusparseCreateDnVec(&vec, v.extent(0), (void*)v.data(), type),
                         "dense vector");
        }
      }
      ~Dense() {
        if (vec) cusparseDestroyDnVec(vec);
        if (mat) cusparseDestroyDnMat(mat);
      }
    };
    // x has op(A)'s columns, y its rows (A's rows and columns for T and H).
    const std::int64_t op_rows = transposed ? a.cols() : a.rows();
    const std::int64_t op_cols = transposed ? a.rows() : a.cols();
    View x, y;
    if constexpr (many) {
      x = View("cusparse::x", op_cols, rhs_columns);
      y = View("cusparse::y", op_rows, rhs_columns);
    } else {
      x = View("cusparse::x", op_cols);
      y = View("cusparse::y", op_rows);
    }
    const Value one = 1, zero = 0;
    std::size_t buffer_bytes = 0;
    bool preprocessed = true;
    {
      const Dense dx(x, plan->value_type), dy(y, plan->value_type);
      const auto op_a = plan->op_a;
      const auto op_n = CUSPARSE_OPERATION_NON_TRANSPOSE;  // opB of SpMM
      if constexpr (many) {
        check(cusparseSpMM_bufferSize(plan->handle, op_a, op_n, &one, plan->matrix, dx.mat, &zero,
                                      dy.mat, plan->value_type, plan->mm_algorithm, &buffer_bytes),
              "SpMM buffer size");
      } else {
        check(cusparseSpMV_bufferSize(plan->handle, op_a, &one, plan->matrix, dx.vec, &zero,
                                      dy.vec, plan->value_type, plan->algorithm, &buffer_bytes),
              "buffer size");
      }
      if (buffer_bytes > 0 && cudaMalloc(&plan->buffer, buffer_bytes) != cudaSuccess)
        throw std::runtime_error("cusparse: cudaMalloc of the work buffer failed");
      cusparseStatus_t status;
      if constexpr (many) {
        status = cusparseSpMM_preprocess(plan->handle, op_a, op_n, &one, plan->matrix, dx.mat,
                                         &zero, dy.mat, plan->value_type, plan->mm_algorithm,
                                         plan->buffer);
      } else {
        status = cusparseSpMV_preprocess(plan->handle, op_a, &one, plan->matrix, dx.vec, &zero,
                                         dy.vec, plan->value_type, plan->algorithm, plan->buffer);
      }
      // The preprocessing is optional: one cuSPARSE does not offer with this
      // opA is left out (the strategy says so); any other failure is an error.
      if (transposed && status == CUSPARSE_STATUS_NOT_SUPPORTED) preprocessed = false;
      else check(status, many ? "SpMM preprocess" : "preprocess");
    }

    Operator<View> op;
    op.strategy = many ? variant + " (SpMM)" : variant;
    if (transposed) {
      op.strategy += std::string(", opA ") + cusparse_operation_name(plan->op_a);
      if (!preprocessed) op.strategy += " (no preprocess: not supported with this opA)";
    }
    op.bytes = bytes;
    op.stored = stored;
    op.apply = [plan, keep, context](const View& x, const View& y) {
      const Value one = 1, zero = 0;
      const Dense dx(x, plan->value_type), dy(y, plan->value_type);
      const auto op_n = CUSPARSE_OPERATION_NON_TRANSPOSE;  // opB of SpMM
      cusparseStatus_t status;
      if constexpr (many) {
        status = cusparseSpMM(plan->handle, plan->op_a, op_n, &one, plan->matrix, dx.mat, &zero,
                              dy.mat, plan->value_type, plan->mm_algorithm, plan->buffer);
      } else {
        status = cusparseSpMV(plan->handle, plan->op_a, &one, plan->matrix, dx.vec, &zero, dy.vec,
                              plan->value_type, plan->algorithm, plan->buffer);
      }
      // The message is built on failure only: nothing allocated in timed calls.
      if (status != CUSPARSE_STATUS_SUCCESS)
        cusparse_check(status, (context + (many ? ": SpMM" : ": SpMV")).c_str());
    };
    return op;
  }
}

}  // namespace kobalt::bench
