// SPDX-License-Identifier: BSD-3-Clause
// CsrK: CSR-k (seed 002 §2.2, Fig. 1). A Csr plus k - 1 pointer arrays that
// group contiguous rows into super-rows (sr_ptr, cumulative rows) and, for
// k = 3, contiguous super-rows into super-super-rows (ssr_ptr, cumulative
// super-rows). The matrix may be stored symmetrically permuted (P A P^T, an
// RCM ordering); the permutation travels with the matrix and spmv applies it
// to x and undoes it on y, so users never see permuted vectors.
#pragma once

#include "../range.hpp"
#include "csr.hpp"
#include "format_traits.hpp"
#include "permutation_check.hpp"
#include "../compat.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace csrk {
/// Symmetric reordering applied before the super-rows are formed.
/// (002's own Band-k ordering is not implemented.)
enum class reordering {
  none,  ///< natural order: the CsrK holds the input rows as they are
  rcm,   ///< reverse Cuthill-McKee on the pattern of A + A^T (square matrices only)
};

/// The reordering's name ("rcm").
inline const char* name(reordering r) { return r == reordering::rcm ? "rcm" : "none"; }

/// The structure to_csrk() builds, every size concrete (tuning::select
/// resolves csrk::parameters with its 0 = automatic fields into this).
struct layout {
  int k = 2;                                ///< 2 or 3 levels
  std::int64_t super_row_size = 1;          ///< rows per super-row (SRS), >= 1
  std::int64_t super_super_row_size = 0;    ///< super-rows per super-super-row (SSRS), k = 3: >= 1; k = 2: 0
  reordering order = reordering::none;      ///< symmetric reordering before the super-rows are formed
  std::uint64_t max_bytes = 0;              ///< largest storage the result may take; 0 = the device's memory
};
}  // namespace csrk

namespace detail {
/// Adds 1 to count when entry i of ptr breaks "ptr(0) = 0, non-decreasing,
/// ptr(n - 1) = last_value".
template <class IndexView>
struct CsrkPointerCheckFunctor {
  using value_type = std::int64_t;
  IndexView ptr;
  std::int64_t n, last_value;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& count) const {
    if ((i == 0 && ptr(0) != 0) || (i + 1 < n && ptr(i + 1) < ptr(i)) ||
        (i + 1 == n && static_cast<std::int64_t>(ptr(i)) != last_value))
      ++count;
  }
};

/// Entries of a pointer array that break "ptr(0) = 0, non-decreasing,
/// ptr(last) = last_value" (an empty array counts as one violation).
template <class ExecutionSpace, class IndexView>
std::int64_t pointer_violations(const ExecutionSpace& exec, const IndexView& ptr,
                                std::int64_t last_value) {
  const std::int64_t n = static_cast<std::int64_t>(ptr.extent(0));
  if (n == 0) return 1;
  std::int64_t bad = 0;
  Kokkos::parallel_reduce(
      "kobalt::csrk::check_pointer", range_policy<ExecutionSpace>(exec, 0, n),
      CsrkPointerCheckFunctor<IndexView>{ptr, n, last_value},
      bad);
  return bad;
}

}  // namespace detail

/// CSR-k (002): a Csr whose rows are grouped into super-rows (k = 2) and
/// those into super-super-rows (k = 3), optionally after a symmetric RCM
/// reordering kept as a permutation (spmv takes and returns vectors in the
/// original numbering). Built by to_csrk; runs csrk::groups. See
/// docs/formats.md.
template <class Value, class Index, class Device = default_device>
class CsrK : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;  ///< Where the kernels run.
  using typename types::index_view;  ///< An array of indices.
  using typename types::value_view;  ///< An array of values.
  using csr_type = Csr<Value, Index, Device>;  ///< Type of the stored rows.

  CsrK() = default;

  /// Takes ownership of a CSR-k structure; to_csrk() builds one from a Csr.
  /// - matrix: the stored rows, already permuted (P A P^T) if perm is given.
  /// - k: 2 or 3.
  /// - sr_ptr: super-row boundaries, sr_ptr(0) = 0, non-decreasing,
  ///   last = matrix.rows(). ssr_ptr (k = 3): super-super-row boundaries in
  ///   super-rows, ssr_ptr(0) = 0, non-decreasing, last = number of
  ///   super-rows; empty for k = 2.
  /// - perm, inverse_perm: both empty (natural order) or both of length
  ///   rows() = cols(); perm(new row) = old row, inverse_perm(old) = new.
  /// - order, super_row_size, super_super_row_size: what produced the
  ///   structure, for reports (0 = sizes not fixed, as in Fig. 1).
  /// Throws invalid_parameter for k not in {2, 3} and invalid_matrix when an
  /// array breaks its invariant (checked on the device, on `exec`; the
  /// default instance of the matrix's space in the overload without it).
  CsrK(csr_type matrix, int k, index_view sr_ptr, index_view ssr_ptr,
       index_view perm = index_view(), index_view inverse_perm = index_view(),
       csrk::reordering order = csrk::reordering::none, std::int64_t super_row_size = 0,
       std::int64_t super_super_row_size = 0)
      : CsrK(execution_space(), matrix, k, sr_ptr, ssr_ptr, perm, inverse_perm, order,
             super_row_size, super_super_row_size) {}
  /// The same, checked on the execution space instance `exec`.
  template <class ExecutionSpace>
  CsrK(const ExecutionSpace& exec, csr_type matrix, int k, index_view sr_ptr, index_view ssr_ptr,
       index_view perm, index_view inverse_perm, csrk::reordering order,
       std::int64_t super_row_size, std::int64_t super_super_row_size)
      : matrix_(matrix), k_(k), sr_ptr_(sr_ptr), ssr_ptr_(ssr_ptr), perm_(perm),
        inverse_perm_(inverse_perm), order_(order), super_row_size_(super_row_size),
        super_super_row_size_(super_super_row_size) {
    if (k != 2 && k != 3)
      throw invalid_parameter("kobalt::CsrK: k = " + std::to_string(k) + ", must be 2 or 3");
    if (detail::pointer_violations(exec, sr_ptr_, matrix_.rows()) != 0)
      throw invalid_matrix("kobalt::CsrK: sr_ptr must start at 0, never decrease and end at " +
                           std::to_string(matrix_.rows()) + " (the rows)");
    if (k == 3 &&
        detail::pointer_violations(exec, ssr_ptr_, num_super_rows()) != 0)
      throw invalid_matrix("kobalt::CsrK: ssr_ptr must start at 0, never decrease and end at " +
                           std::to_string(num_super_rows()) + " (the super-rows)");
    if (k == 2 && ssr_ptr_.extent(0) != 0)
      throw invalid_matrix("kobalt::CsrK: k = 2 has no ssr_ptr (pass an empty view)");
    if (perm_.extent(0) != inverse_perm_.extent(0))
      throw invalid_matrix("kobalt::CsrK: perm and inverse_perm differ in length");
    if (perm_.extent(0) != 0) {
      if (matrix_.rows() != matrix_.cols() ||
          static_cast<std::int64_t>(perm_.extent(0)) != static_cast<std::int64_t>(matrix_.rows()))
        throw invalid_matrix("kobalt::CsrK: a permutation needs a square matrix and one entry "
                             "per row");
      if (detail::permutation_violations(exec, perm_, inverse_perm_) != 0)
        throw invalid_matrix("kobalt::CsrK: perm is not a permutation with inverse inverse_perm");
    }
  }

  Index rows() const { return matrix_.rows(); }  ///< Number of rows.
  Index cols() const { return matrix_.cols(); }  ///< Number of columns.
  std::int64_t nnz() const { return matrix_.nnz(); }  ///< Entries.
  /// Entries held in memory (CSR-k has no padding).
  std::int64_t stored() const { return matrix_.stored(); }
  /// The Csr, the pointer arrays and the permutation.
  std::uint64_t bytes() const {
    return matrix_.bytes() + static_cast<std::uint64_t>(sr_ptr_.extent(0) + ssr_ptr_.extent(0) +
                                                        perm_.extent(0) +
                                                        inverse_perm_.extent(0)) *
                                 sizeof(Index);
  }

  int k() const { return k_; }  ///< Levels: 2 or 3.
  /// Super-rows.
  Index num_super_rows() const {
    return sr_ptr_.extent(0) == 0 ? Index(0) : static_cast<Index>(sr_ptr_.extent(0) - 1);
  }
  /// Super-super-rows (k = 3); 0 for k = 2.
  Index num_super_super_rows() const {
    return ssr_ptr_.extent(0) == 0 ? Index(0) : static_cast<Index>(ssr_ptr_.extent(0) - 1);
  }
  /// Rows per super-row / super-rows per super-super-row used by to_csrk()
  /// (the last group may be shorter); 0 when the caller gave the pointers.
  std::int64_t super_row_size() const { return super_row_size_; }
  /// Super-rows per super-super-row used by to_csrk() (k = 3); 0 otherwise.
  std::int64_t super_super_row_size() const { return super_super_row_size_; }
  csrk::reordering reordering() const { return order_; }  ///< The reordering applied.

  /// The stored rows as a plain Csr (002 §2.2: CSR-k stays usable as CSR).
  /// When is_permuted(), this is P A P^T: row i is row perm(i) of A, and
  /// column j is column perm(j) of A.
  const csr_type& matrix() const { return matrix_; }
  /// Super-row boundaries in rows (num_super_rows() + 1 entries).
  const index_view& sr_ptr() const { return sr_ptr_; }
  /// Empty for k = 2.
  const index_view& ssr_ptr() const { return ssr_ptr_; }

  bool is_permuted() const { return perm_.extent(0) != 0; }  ///< Whether a permutation is applied.
  /// perm(new) = old; empty when not permuted.
  const index_view& permutation() const { return perm_; }
  /// inverse_perm(old) = new; empty when not permuted.
  const index_view& inverse_permutation() const { return inverse_perm_; }

 private:
  csr_type matrix_;
  int k_ = 2;
  index_view sr_ptr_, ssr_ptr_, perm_, inverse_perm_;
  csrk::reordering order_ = csrk::reordering::none;
  std::int64_t super_row_size_ = 0, super_super_row_size_ = 0;
};

}  // namespace kobalt
