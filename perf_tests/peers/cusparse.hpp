// SPDX-License-Identifier: BSD-3-Clause
// cuSPARSE as a peer in kobalt-bench: cusparseSpMV on the same CSR arrays
// (no copy, same ordering), with cusparseSpMV_preprocess done in setup; for
// several right-hand sides (--rhs K, column-major x and y) cusparseSpMM with
// cusparseSpMM_preprocess.
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

/// Handle, descriptors and work buffer of one prepared cusparseSpMV.
struct CusparsePlan {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  void* buffer = nullptr;
  cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_ALG_DEFAULT;
  cusparseSpMMAlg_t mm_algorithm = CUSPARSE_SPMM_ALG_DEFAULT;
  cudaDataType value_type = CUDA_R_64F;
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
/// variants (SpMM has no Sliced-ELL). Complex values run as CUDA_C_32F /
/// CUDA_C_64F: Kokkos::complex<R> is two R's, real then imaginary, as
/// cuComplex / cuDoubleComplex.
template <class View, class Value, class Index, class Device>
Operator<View> prepare_cusparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                int rhs_columns) {
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
      throw std::runtime_error("cusparse:sell: cusparseSpMM has no Sliced-ELL (--rhs 1 only)");
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
    View x, y;
    if constexpr (many) {
      x = View("cusparse::x", a.cols(), rhs_columns);
      y = View("cusparse::y", a.rows(), rhs_columns);
    } else {
      x = View("cusparse::x", a.cols());
      y = View("cusparse::y", a.rows());
    }
    const Value one = 1, zero = 0;
    std::size_t buffer_bytes = 0;
    {
      const Dense dx(x, plan->value_type), dy(y, plan->value_type);
      const auto op_n = CUSPARSE_OPERATION_NON_TRANSPOSE;
      if constexpr (many) {
        cusparse_check(cusparseSpMM_bufferSize(plan->handle, op_n, op_n, &one, plan->matrix, dx.mat,
                                               &zero, dy.mat, plan->value_type, plan->mm_algorithm,
                                               &buffer_bytes),
                       "SpMM buffer size");
      } else {
        cusparse_check(cusparseSpMV_bufferSize(plan->handle, op_n, &one, plan->matrix, dx.vec,
                                               &zero, dy.vec, plan->value_type, plan->algorithm,
                                               &buffer_bytes),
                       "buffer size");
      }
      if (buffer_bytes > 0 && cudaMalloc(&plan->buffer, buffer_bytes) != cudaSuccess)
        throw std::runtime_error("cusparse: cudaMalloc of the work buffer failed");
      if constexpr (many) {
        cusparse_check(cusparseSpMM_preprocess(plan->handle, op_n, op_n, &one, plan->matrix, dx.mat,
                                               &zero, dy.mat, plan->value_type, plan->mm_algorithm,
                                               plan->buffer),
                       "SpMM preprocess");
      } else {
        cusparse_check(cusparseSpMV_preprocess(plan->handle, op_n, &one, plan->matrix, dx.vec,
                                               &zero, dy.vec, plan->value_type, plan->algorithm,
                                               plan->buffer),
                       "preprocess");
      }
    }

    Operator<View> op;
    op.strategy = many ? variant + " (SpMM)" : variant;
    op.bytes = bytes;
    op.stored = stored;
    op.apply = [plan, keep](const View& x, const View& y) {
      const Value one = 1, zero = 0;
      const Dense dx(x, plan->value_type), dy(y, plan->value_type);
      const auto op_n = CUSPARSE_OPERATION_NON_TRANSPOSE;
      if constexpr (many) {
        cusparse_check(cusparseSpMM(plan->handle, op_n, op_n, &one, plan->matrix, dx.mat, &zero,
                                    dy.mat, plan->value_type, plan->mm_algorithm, plan->buffer),
                       "SpMM");
      } else {
        cusparse_check(cusparseSpMV(plan->handle, op_n, &one, plan->matrix, dx.vec, &zero, dy.vec,
                                    plan->value_type, plan->algorithm, plan->buffer),
                       "SpMV");
      }
    };
    return op;
  }
}

}  // namespace kobalt::bench
