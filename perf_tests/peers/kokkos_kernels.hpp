// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels as a peer in kobalt-bench: KokkosSparse::spmv on the same
// CSR arrays (no copy, same ordering), so the comparison is side by side.
#pragma once

#include "../format_registry.hpp"

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

namespace kobalt::bench {

/// "kk": KokkosSparse::spmv with its default (native) algorithm.
template <class View, class Value, class Index, class Device>
Operator<View> prepare_kokkos_kernels(const FormatSpec& spec, const Csr<Value, Index, Device>& a) {
  spec.only({});
  if (!spec.word.empty())
    throw std::invalid_argument("kk: algorithm '" + spec.word + "' is not built (known: default)");
  using matrix = KokkosSparse::CrsMatrix<Value, Index, Device, void, Index>;
  matrix m("kobalt::bench::kk", a.rows(), a.cols(), static_cast<Index>(a.nnz()), a.values(),
           a.row_ptr(), a.col_indices());
  Operator<View> op;
  op.strategy = "KokkosSparse::spmv";
  op.bytes = a.bytes();
  op.stored = a.stored();
  op.apply = [m](const View& x, const View& y) {
    using scalar = typename View::non_const_value_type;
    KokkosSparse::spmv("N", scalar(1), m, x, scalar(0), y);
  };
  return op;
}

}  // namespace kobalt::bench
