// SPDX-License-Identifier: BSD-3-Clause
// rocSPARSE as a peer in kobalt-bench (HIP builds, -DKOBALT_ENABLE_ROCSPARSE=ON):
// the generic rocsparse_spmv on the same arrays where the layouts agree, on
// Kokkos' HIP stream, its buffer and analysis done in setup. Compiled against
// Debian 12's librocsparse-dev 5.3 (rocSPARSE 2.3: rocsparse_spmv has 11
// arguments, the analysis happens on the first call with a buffer); rocSPARSE
// 3 (ROCm 6) added a stage argument (buffer size, preprocess, compute),
// chosen below by ROCSPARSE_VERSION_MAJOR. Not run here (no AMD GPU).
#pragma once

#include "../format_registry.hpp"

#include <hip/hip_runtime_api.h>
#include <rocsparse/rocsparse.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kobalt::bench {

inline void rocsparse_check(rocsparse_status status, const char* what) {
  if (status != rocsparse_status_success)
    throw std::runtime_error(std::string("rocSPARSE: ") + what + ": status " +
                             std::to_string(static_cast<int>(status)));
}

/// Handle, matrix descriptor and work buffer of one prepared rocsparse_spmv.
struct RocsparsePlan {
  rocsparse_handle handle = nullptr;
  rocsparse_spmat_descr matrix = nullptr;
  void* buffer = nullptr;
  std::size_t buffer_bytes = 0;
  rocsparse_spmv_alg algorithm = rocsparse_spmv_alg_default;
  rocsparse_datatype value_type = rocsparse_datatype_f64_r;
  rocsparse_operation trans = rocsparse_operation_none;  ///< --mode
  ~RocsparsePlan() {
    if (buffer) (void)hipFree(buffer);
    if (matrix) rocsparse_destroy_spmat_descr(matrix);
    if (handle) rocsparse_destroy_handle(handle);
  }
};

/// One dense vector descriptor over a View's data.
struct RocsparseVector {
  rocsparse_dnvec_descr descr = nullptr;
  template <class View>
  RocsparseVector(const View& v, rocsparse_datatype type) {
    rocsparse_check(rocsparse_create_dnvec_descr(&descr, static_cast<std::int64_t>(v.extent(0)),
                                                 (void*)v.data(), type),
                    "dense vector");
  }
  ~RocsparseVector() {
    if (descr) rocsparse_destroy_dnvec_descr(descr);
  }
  RocsparseVector(const RocsparseVector&) = delete;
  RocsparseVector& operator=(const RocsparseVector&) = delete;
};

/// rocsparse_spmv of `plan` with x, y; with buffer == nullptr (rocSPARSE 2)
/// or at the buffer-size stage (3) it only sets plan.buffer_bytes.
template <class Value>
void rocsparse_spmv_call(RocsparsePlan& plan, const RocsparseVector& x, const RocsparseVector& y,
                         [[maybe_unused]] int stage, const char* what) {
  const Value one = 1, zero = 0;
#if ROCSPARSE_VERSION_MAJOR >= 3
  rocsparse_check(rocsparse_spmv(plan.handle, plan.trans, &one, plan.matrix, x.descr, &zero,
                                 y.descr, plan.value_type, plan.algorithm,
                                 static_cast<rocsparse_spmv_stage>(stage), &plan.buffer_bytes,
                                 plan.buffer),
                  what);
#else
  rocsparse_check(rocsparse_spmv(plan.handle, plan.trans, &one, plan.matrix, x.descr, &zero,
                                 y.descr, plan.value_type, plan.algorithm, &plan.buffer_bytes,
                                 plan.buffer),
                  what);
#endif
}

/// "rocsparse" (CSR, adaptive: rocSPARSE's default CSR kernel),
/// "rocsparse:csr_stream", "rocsparse:coo" (segmented) and "rocsparse:ell"
/// (Kobalt's Ell with stride = rows is rocSPARSE's column-major ELL, padding
/// column -1, so the same arrays are handed over). One right-hand side:
/// --rhs K > 1 is an error row (the generic SpMM is not wired up). `mode` T
/// or H: trans = rocsparse_operation_transpose (conjugate_transpose for
/// complex H) in the buffer size, analysis and every call; a variant that
/// rocSPARSE refuses with it (a status other than success, e.g.
/// not_implemented) is an error row naming the variant and the operation.
/// Not run here: the operation's support per algorithm is rocSPARSE's.
template <class View, class Value, class Index, class Device>
Operator<View> prepare_rocsparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                 int rhs_columns, Mode mode) {
  static_assert(std::is_same_v<typename View::non_const_value_type, Value>,
                "rocsparse peer: vectors must hold the matrix's value type");
  spec.only({});
  const std::string variant = spec.word.empty() ? "csr_adaptive" : spec.word;
  if (variant != "csr_adaptive" && variant != "csr_stream" && variant != "coo" && variant != "ell")
    throw std::invalid_argument("rocsparse: variant '" + spec.word +
                                "' is unknown (known: csr_stream, coo, ell)");
  if constexpr (View::rank != 1) {
    (void)a, (void)rhs_columns, (void)mode;
    // Not a bad spec: the peer cannot run this --rhs (an error row per input).
    throw peer_lacks("rocsparse: --rhs 1 only (rocsparse_spmv)");
  } else {
    (void)rhs_columns;
    auto plan = std::make_shared<RocsparsePlan>();
    plan->value_type =
        std::is_same_v<Value, double> ? rocsparse_datatype_f64_r : rocsparse_datatype_f32_r;
    // For real values C is A and H is A^T; rocSPARSE has no conjugate-only operation.
    const Mode applied = applied_mode<Value>(mode);
    if (applied == Mode::conjugate)
      throw peer_lacks("rocsparse: --mode C: rocSPARSE has no conjugate-only operation");
    plan->trans = applied == Mode::transpose             ? rocsparse_operation_transpose
                  : applied == Mode::conjugate_transpose ? rocsparse_operation_conjugate_transpose
                                                         : rocsparse_operation_none;
    const bool transposed = plan->trans != rocsparse_operation_none;
    const std::string context =
        "rocsparse:" + variant +
        (applied == Mode::transpose             ? " with trans = rocsparse_operation_transpose"
         : applied == Mode::conjugate_transpose ? " with trans = rocsparse_operation_conjugate_transpose"
                                                : "");
    const rocsparse_indextype index_type =
        sizeof(Index) == 4 ? rocsparse_indextype_i32 : rocsparse_indextype_i64;
    rocsparse_check(rocsparse_create_handle(&plan->handle), "create handle");
    rocsparse_check(rocsparse_set_stream(plan->handle, Kokkos::HIP().hip_stream()), "set stream");
    std::shared_ptr<void> keep;  // the arrays the descriptor points at
    std::uint64_t bytes = a.bytes();
    std::int64_t stored = a.stored();
    if (variant == "csr_adaptive" || variant == "csr_stream") {
      plan->algorithm = variant == "csr_stream" ? rocsparse_spmv_alg_csr_stream
                                                : rocsparse_spmv_alg_csr_adaptive;
      rocsparse_check(rocsparse_create_csr_descr(
                          &plan->matrix, a.rows(), a.cols(), a.nnz(), (void*)a.row_ptr().data(),
                          (void*)a.col_indices().data(), (void*)a.values().data(), index_type,
                          index_type, rocsparse_index_base_zero, plan->value_type),
                      "create CSR");
      keep = std::make_shared<Csr<Value, Index, Device>>(a);
    } else if (variant == "coo") {
      auto coo = std::make_shared<Coo<Value, Index, Device>>(to_coo(a));
      plan->algorithm = rocsparse_spmv_alg_coo;
      rocsparse_check(rocsparse_create_coo_descr(&plan->matrix, a.rows(), a.cols(), a.nnz(),
                                                 (void*)coo->row_indices().data(),
                                                 (void*)coo->col_indices().data(),
                                                 (void*)coo->values().data(), index_type,
                                                 rocsparse_index_base_zero, plan->value_type),
                      "create COO");
      bytes = coo->bytes();
      stored = coo->stored();
      keep = coo;
    } else {
      auto ell = std::make_shared<Ell<Value, Index, Device>>(to_ell(a));  // stride = rows
      plan->algorithm = rocsparse_spmv_alg_ell;
      rocsparse_check(rocsparse_create_ell_descr(&plan->matrix, a.rows(), a.cols(),
                                                 (void*)ell->col_indices().data(),
                                                 (void*)ell->values().data(),
                                                 ell->stored_per_row(), index_type,
                                                 rocsparse_index_base_zero, plan->value_type),
                      "create ELL");
      bytes = ell->bytes();
      stored = ell->stored();
      keep = ell;
    }
    // Buffer size, buffer, and the analysis (rocSPARSE 2: the first call
    // with a buffer; 3: the preprocess stage), all in setup.
    // x has op(A)'s columns, y its rows (A's rows and columns for T and H).
    View x("rocsparse::x", transposed ? a.rows() : a.cols()),
        y("rocsparse::y", transposed ? a.cols() : a.rows());
    {
      const RocsparseVector dx(x, plan->value_type), dy(y, plan->value_type);
#if ROCSPARSE_VERSION_MAJOR >= 3
      rocsparse_spmv_call<Value>(*plan, dx, dy, rocsparse_spmv_stage_buffer_size,
                                 (context + ": buffer size").c_str());
#else
      rocsparse_spmv_call<Value>(*plan, dx, dy, 0, (context + ": buffer size").c_str());
#endif
      // Never a null buffer: rocSPARSE 2 takes a null one as a size query
      // and would compute nothing.
      plan->buffer_bytes = std::max<std::size_t>(plan->buffer_bytes, 256);
      if (hipMalloc(&plan->buffer, plan->buffer_bytes) != hipSuccess)
        throw std::runtime_error("rocsparse: hipMalloc of the work buffer failed");
#if ROCSPARSE_VERSION_MAJOR >= 3
      rocsparse_spmv_call<Value>(*plan, dx, dy, rocsparse_spmv_stage_preprocess,
                                 (context + ": preprocess").c_str());
#else
      rocsparse_spmv_call<Value>(*plan, dx, dy, 0, (context + ": analysis").c_str());
#endif
    }
    Operator<View> op;
    op.strategy = variant;
    if (transposed)
      op.strategy += plan->trans == rocsparse_operation_transpose
                         ? ", rocsparse_operation_transpose"
                         : ", rocsparse_operation_conjugate_transpose";
    op.bytes = bytes;
    op.stored = stored;
    op.apply = [plan, keep, what = context + ": SpMV"](const View& x, const View& y) {
      const RocsparseVector dx(x, plan->value_type), dy(y, plan->value_type);
#if ROCSPARSE_VERSION_MAJOR >= 3
      rocsparse_spmv_call<Value>(*plan, dx, dy, rocsparse_spmv_stage_compute, what.c_str());
#else
      rocsparse_spmv_call<Value>(*plan, dx, dy, 0, what.c_str());
#endif
    };
    return op;
  }
}

}  // namespace kobalt::bench
