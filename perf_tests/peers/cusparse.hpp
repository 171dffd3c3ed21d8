// SPDX-License-Identifier: BSD-3-Clause
// cuSPARSE as a peer in kobalt-bench: cusparseSpMV on the same CSR arrays
// (no copy, same ordering), with cusparseSpMV_preprocess done in setup.
#pragma once

#include "../format_registry.hpp"

#include <cuda_runtime_api.h>
#include <cusparse.h>

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
  cudaDataType value_type = CUDA_R_64F;
  ~CusparsePlan() {
    if (buffer) cudaFree(buffer);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
  }
};

/// "cusparse" (CSR, CUSPARSE_SPMV_ALG_DEFAULT) and "cusparse:csr_alg2"
/// (CUSPARSE_SPMV_CSR_ALG2, deterministic merge-style).
template <class View, class Value, class Index, class Device>
Operator<View> prepare_cusparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a) {
  static_assert(std::is_same_v<typename View::non_const_value_type, Value>,
                "cusparse peer: vectors must hold the matrix's value type");
  spec.only({});
  auto plan = std::make_shared<CusparsePlan>();
  if (spec.word.empty() || spec.word == "default") plan->algorithm = CUSPARSE_SPMV_ALG_DEFAULT;
  else if (spec.word == "csr_alg2") plan->algorithm = CUSPARSE_SPMV_CSR_ALG2;
  else throw std::invalid_argument("cusparse: algorithm '" + spec.word + "' is not built (known: default, csr_alg2)");
  plan->value_type = std::is_same_v<Value, double> ? CUDA_R_64F : CUDA_R_32F;
  const cusparseIndexType_t index_type =
      sizeof(Index) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  cusparse_check(cusparseCreate(&plan->handle), "create");
  cusparse_check(cusparseCreateCsr(&plan->matrix, a.rows(), a.cols(), a.nnz(),
                                   (void*)a.row_ptr().data(), (void*)a.col_indices().data(),
                                   (void*)a.values().data(), index_type, index_type,
                                   CUSPARSE_INDEX_BASE_ZERO, plan->value_type),
                 "create CSR");
  // Vectors only for the buffer size and the preprocessing call.
  View x("cusparse::x", a.cols()), y("cusparse::y", a.rows());
  auto dense = [&](const View& v) {
    cusparseDnVecDescr_t d;
    cusparse_check(cusparseCreateDnVec(&d, v.extent(0), (void*)v.data(), plan->value_type), "dense vector");
    return d;
  };
  cusparseDnVecDescr_t dx = dense(x), dy = dense(y);
  const Value one = 1, zero = 0;
  std::size_t bytes = 0;
  cusparse_check(cusparseSpMV_bufferSize(plan->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                         plan->matrix, dx, &zero, dy, plan->value_type,
                                         plan->algorithm, &bytes),
                 "buffer size");
  if (bytes > 0 && cudaMalloc(&plan->buffer, bytes) != cudaSuccess)
    throw std::runtime_error("cusparse: cudaMalloc of the work buffer failed");
  cusparse_check(cusparseSpMV_preprocess(plan->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                         plan->matrix, dx, &zero, dy, plan->value_type,
                                         plan->algorithm, plan->buffer),
                 "preprocess");
  cusparseDestroyDnVec(dx);
  cusparseDestroyDnVec(dy);

  Operator<View> op;
  op.strategy = spec.word.empty() ? "csr_alg_default" : spec.word;
  op.bytes = a.bytes();
  op.stored = a.stored();
  op.apply = [plan, a](const View& x, const View& y) {
    const Value one = 1, zero = 0;
    cusparseDnVecDescr_t dx, dy;
    cusparse_check(cusparseCreateDnVec(&dx, x.extent(0), (void*)x.data(), plan->value_type), "x");
    cusparse_check(cusparseCreateDnVec(&dy, y.extent(0), (void*)y.data(), plan->value_type), "y");
    cusparse_check(cusparseSpMV(plan->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                plan->matrix, dx, &zero, dy, plan->value_type, plan->algorithm,
                                plan->buffer),
                   "SpMV");
    cusparseDestroyDnVec(dx);
    cusparseDestroyDnVec(dy);
  };
  return op;
}

}  // namespace kobalt::bench
