// SPDX-License-Identifier: BSD-3-Clause
// A row range of a generated matrix, built alone: the rows one rank of a
// distributed run owns, with global columns. The structured generators'
// row models can also grow along their slowest axis (weak scaling).
#pragma once

#include "generators.hpp"
#include "spec.hpp"
#include "structured.hpp"

#include <kobalt/kobalt.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kobalt::bench::gen {

/// Rows [first, first + count) of a row model (build_csr's interface),
/// renumbered from 0; the columns stay global.
template <class Model>
struct RowRange {
  Model model;
  std::int64_t first = 0;

  /// The writer of the range: the model's global row -> the range's row.
  template <class Writer>
  struct Shifted {
    const Writer& out;
    std::int64_t first;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t pos, std::int64_t c,
                                           double v) const {
      out(row - first, pos, c, v);
    }
  };
  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const { return model.length(first + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t i, std::int64_t len) const {
    return model.work(first + i, len);
  }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t len,
                                   const Writer& out) const {
    model.fill(first + i, k, len, Shifted<Writer>{out, first});
  }
};

/// A structured generator's row model and size.
struct Structured {
  std::variant<GridStencil, BlockBand, Arrow> model;
  std::int64_t rows = 0, cols = 0, mean_work = 1;
  std::string name;
};

/// `spec`'s row model grown `copies` times along its slowest axis (weak
/// scaling: lap3d:N as N x N x (N*copies)), or nullopt for a generator
/// that has no row model of its own (the random ones) or cannot grow so.
inline std::optional<Structured> structured(const GeneratorSpec& spec, std::int64_t copies) {
  const std::string text = to_string(spec);
  const std::string grown = copies == 1 ? text : text + " x" + std::to_string(copies);
  if (const auto* s = std::get_if<spec::lap2d>(&spec))
    return Structured{GridStencil{s->n, 2, false, s->n * copies}, s->n * s->n * copies,
                      s->n * s->n * copies, 1, grown};
  if (const auto* s = std::get_if<spec::lap3d>(&spec)) {
    const std::int64_t rows = s->n * s->n * s->n * copies;
    return Structured{GridStencil{s->n, 3, false, s->n * copies}, rows, rows, 1, grown};
  }
  if (const auto* s = std::get_if<spec::stencil27>(&spec)) {
    const std::int64_t rows = s->n * s->n * s->n * copies;
    return Structured{GridStencil{s->n, 3, true, s->n * copies}, rows, rows, 1, grown};
  }
  if (const auto* s = std::get_if<spec::fem>(&spec)) {
    const std::int64_t rows = s->blocks * copies * s->block_size;
    return Structured{BlockBand{s->blocks * copies, s->block_size, s->bandwidth, spec::default_seed},
                      rows, rows, (2 * s->bandwidth + 1) * s->block_size, grown};
  }
  if (const auto* s = std::get_if<spec::arrow>(&spec); s && copies == 1)
    return Structured{Arrow{s->n, spec::default_seed}, s->n, s->n, 2, text};
  return std::nullopt;
}

namespace detail {

/// rp(i + 1) = the sum of the model's first i + 1 row lengths.
template <class Model>
struct LengthScan {
  Model model;
  Kokkos::View<std::int64_t*> rp;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& partial,
                                         const bool final) const {
    partial += model.length(i);
    if (final) rp(i + 1) = partial;
  }
};

/// out(i) = in(first + i) - in(first): a row range's own row pointer.
template <class Out, class In>
struct ShiftedOffsets {
  Out out;
  In in;
  std::int64_t first;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out(i) = in(first + i) - in(first);
  }
};

}  // namespace detail

/// The global row pointer of a structured model, on the host (what
/// Partition::balanced reads); every rank computes the same.
inline std::vector<std::int64_t> row_pointer(const Structured& s) {
  Kokkos::View<std::int64_t*> rp("kobalt::bench::row_pointer", s.rows + 1);
  std::visit(
      [&](const auto& m) {
        Kokkos::parallel_scan("kobalt::bench::row_lengths",
                              Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, s.rows),
                              detail::LengthScan<std::decay_t<decltype(m)>>{m, rp});
      },
      s.model);
  std::vector<std::int64_t> out(static_cast<std::size_t>(s.rows) + 1);
  Kokkos::deep_copy(Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        out.data(), out.size()),
                    rp);
  return out;
}

/// A Csr's row pointer on the host, as 64-bit offsets.
template <class Value, class Index>
std::vector<std::int64_t> row_pointer(const Csr<Value, Index, default_device>& a) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  return std::vector<std::int64_t>(host.data(), host.data() + host.extent(0));
}

/// Rows [first, first + count) of a structured model, built on this rank's
/// device; `rp` is the global row pointer.
template <class Value, class Index>
Csr<Value, Index, default_device> build_rows(const Structured& s, const std::vector<std::int64_t>& rp,
                                             std::int64_t first, std::int64_t count) {
  const Shape shape{count, s.cols, rp[first + count] - rp[first]};
  return std::visit(
      [&](const auto& m) {
        using model = std::decay_t<decltype(m)>;
        return checked_build<Value, Index, default_device>(
            RowRange<model>{m, first}, shape, s.mean_work, 0, "generator '" + s.name + "'", 0);
      },
      s.model);
}

/// Rows [first, first + count) of `a`, sharing its columns and values.
template <class Value, class Index>
Csr<Value, Index, default_device> rows_of(const Csr<Value, Index, default_device>& a,
                                          std::int64_t first, std::int64_t count) {
  using csr = Csr<Value, Index, default_device>;
  Kokkos::View<Index*> rp("kobalt::bench::rows_of", count + 1);
  Kokkos::parallel_for("kobalt::bench::rows_of", Kokkos::RangePolicy<>(0, count + 1),
                       detail::ShiftedOffsets<Kokkos::View<Index*>, typename csr::row_ptr_view>{
                           rp, a.row_ptr(), first});
  const auto host_rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  const std::pair<std::int64_t, std::int64_t> range{host_rp(first), host_rp(first + count)};
  return csr(assume_valid, Kokkos::DefaultExecutionSpace(), static_cast<Index>(count), a.cols(), rp,
             Kokkos::subview(a.col_indices(), range), Kokkos::subview(a.values(), range));
}

}  // namespace kobalt::bench::gen
