// SPDX-License-Identifier: BSD-3-Clause
// Deterministic matrix generators for kobalt-bench, built on the device.
//
// API
//   GeneratorSpec parse_generator(const std::string& spec);  // spec.hpp
//   std::string to_string(const GeneratorSpec&);              // canonical text
//   bool is_generator_spec(const std::string&);               // NAME is known
//   std::string generator_help();                             // --help text
//   Csr<Value, Index, Device> generate<Value, Index, Device>(const GeneratorSpec&,
//                                                            std::uint64_t max_bytes = 0);
//
// Grammar: NAME:ARG[,ARG...]. Integers are digits, 1e6 or 2^20; reals are
// strtod numbers; seed S defaults to 1. Bad specs throw std::invalid_argument
// naming the spec and the problem.
//
//   lap2d:N            2-D 5-point Laplacian on an N x N grid: 4 on the
//                      diagonal, -1 for the neighbours. nnz = 5N^2 - 4N.
//   lap3d:N            3-D 7-point Laplacian on N^3: 6 / -1. nnz = 7N^3 - 6N^2.
//   stencil27:N        3-D 27-point stencil on N^3: 26 / -1. nnz = (3N - 2)^3.
//   fem:N,B,W          N block rows of dense B x B blocks; block row I couples
//                      to block columns |I - J| <= W. Symmetric values.
//                      nnz = B^2 (N (2w + 1) - w (w + 1)), w = min(W, N - 1).
//   uniform:N,K[,S]    N x N, exactly K distinct random columns per row.
//   tall:M,N,K[,S]     M x N, M > N, K distinct random columns per row.
//   wide:M,N,K[,S]     M x N, M < N, likewise.
//   zipf:N,MEAN[,s,S]  N x N; the row of rank r has min(N, round(C r^-s))
//                      distinct random columns, C set so the mean is MEAN
//                      (as closely as rounding allows; default s = 1, Zipf's
//                      law proper); ranks are a random permutation of rows.
//   rmat:SCALE,EF[,a,b,c,S]  R-MAT: 2^SCALE rows, EF 2^SCALE edges, Graph500
//                      a = 0.57, b = 0.19, c = 0.19 (give all three or none),
//                      duplicates summed, self-loops kept, no vertex shuffle.
//   circuit:N,R,L[,S]  tridiagonal N x N plus R evenly spaced dense rows
//                      (floor((2t + 1) N / 2R)) of L entries each: their band
//                      plus random distinct columns. nnz = 3N - 2 + R (L - 3)
//                      (+1 per dense row that is the first or last row).
//   arrow:N            full row 0, full column 0, diagonal. nnz = 3N - 2.
//
// Values: stencils keep their classic values; every other generator takes
// a(i, j) from the hash of (seed, i, j): a multiple of 2^-20 in
// [-1, -1/8] u [1/8, 1] (exact in float), times the multiplicity for R-MAT.
// fem and arrow use the symmetric variant (a(i, j) = a(j, i)).
//
// Determinism: every row's entries come from a counter-based hash of (seed,
// row, k) (counter_hash.hpp) through integer arithmetic and single IEEE
// operations, and every scan is an integer scan, so the matrix is
// bit-identical on every backend and thread count.
//
// Construction (all on the device, no host loop over rows or entries, no
// sort): row lengths -> scan -> row pointer -> each row's entries in
// parallel (rows of more than 2^16 entries split over many teams). Random
// distinct columns come out sorted by construction, from order statistics
// (row_engine.hpp; the one deviation from a uniform K-subset: adjacent
// columns c, c + 1 are half as frequent); R-MAT rows and columns likewise
// (rmat.hpp). Before allocating, rows, cols and nnz (closed forms above; the
// zipf length plan on the host; R-MAT's after merging duplicates) are checked
// against Index (kobalt::index_overflow) and the Csr plus temporaries against
// max_bytes (kobalt::format_too_large; 0 = the device's memory).
#pragma once

#include "random_rows.hpp"
#include "rmat.hpp"
#include "row_engine.hpp"
#include "spec.hpp"
#include "structured.hpp"
#include "zipf_lengths.hpp"

#include <kobalt/compat.hpp>
#include <kobalt/formats/csr.hpp>

#include <cstdint>
#include <string>
#include <variant>

namespace kobalt::bench {

namespace gen {

/// Checks the sizes, then builds a model's Csr (temp_bytes: its extra
/// device storage).
template <class Value, class Index, class Device, class Model>
Csr<Value, Index, Device> checked_build(const Model& model, const Shape& shape,
                                        std::int64_t mean_work, std::uint64_t temp_bytes,
                                        const std::string& what, std::uint64_t max_bytes) {
  check_generated_size<Value, Index, Device>(what, shape, temp_bytes, max_bytes);
  return build_csr<Value, Index, Device>(model, shape, mean_work, what, max_bytes);
}

/// Device bytes of the sorted samples of `rows` rows with `samples` in all.
inline std::uint64_t sample_bytes(std::int64_t rows, std::int64_t samples) {
  // Saturating, as every byte count before an allocation: circuit's samples
  // R L reach 2^62 with rows that fit int32 (see rmat.hpp's count).
  using kobalt::detail::saturating_add;
  using kobalt::detail::saturating_mul;
  const auto r = static_cast<std::uint64_t>(rows) + 1;
  return saturating_add(saturating_mul(r, 8),
                        saturating_mul(saturating_add(static_cast<std::uint64_t>(samples), r), 8));
}

/// Checks the sizes (samples included), draws the model's sorted samples,
/// then builds its Csr.
template <class Value, class Index, class Device, class Model>
Csr<Value, Index, Device> checked_build_sampled(Model model, const Shape& shape,
                                                std::int64_t samples, std::uint64_t seed,
                                                const std::string& what,
                                                std::uint64_t max_bytes) {
  check_generated_size<Value, Index, Device>(what, shape, sample_bytes(shape.rows, samples),
                                             max_bytes);
  const std::int64_t mean = shape.rows > 0 ? shape.nnz / shape.rows : 1;
  model.sampler = make_sorted_samples<Device>(model, shape.rows, seed, stream_gap, mean);
  return build_csr<Value, Index, Device>(model, shape, mean, what, max_bytes);
}

template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::lap2d& s, const std::string& what, std::uint64_t max_bytes) {
  return checked_build<V, I, D>(GridStencil{s.n, 2, false, s.n}, shape_of(s), 1, 0, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::lap3d& s, const std::string& what, std::uint64_t max_bytes) {
  return checked_build<V, I, D>(GridStencil{s.n, 3, false, s.n}, shape_of(s), 1, 0, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::stencil27& s, const std::string& what,
                          std::uint64_t max_bytes) {
  return checked_build<V, I, D>(GridStencil{s.n, 3, true, s.n}, shape_of(s), 1, 0, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::fem& s, const std::string& what, std::uint64_t max_bytes) {
  const Shape shape = shape_of(s);
  return checked_build<V, I, D>(BlockBand{s.blocks, s.block_size, s.bandwidth, spec::default_seed},
                                shape, shape.nnz / shape.rows, 0, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::arrow& s, const std::string& what, std::uint64_t max_bytes) {
  return checked_build<V, I, D>(Arrow{s.n, spec::default_seed}, shape_of(s), 2, 0, what, max_bytes);
}

template <class V, class I, class D, class S>
Csr<V, I, D> generate_random_rows(const S& s, std::int64_t cols, std::int64_t per_row,
                                  const std::string& what, std::uint64_t max_bytes) {
  RandomRows<D> model;
  model.cols = cols;
  model.per_row = per_row;
  model.seed = s.seed;
  const Shape shape = shape_of(s);
  return checked_build_sampled<V, I, D>(model, shape, shape.nnz, s.seed, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::uniform& s, const std::string& what, std::uint64_t max_bytes) {
  return generate_random_rows<V, I, D>(s, s.n, s.per_row, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::tall& s, const std::string& what, std::uint64_t max_bytes) {
  return generate_random_rows<V, I, D>(s, s.cols, s.per_row, what, max_bytes);
}
template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::wide& s, const std::string& what, std::uint64_t max_bytes) {
  return generate_random_rows<V, I, D>(s, s.cols, s.per_row, what, max_bytes);
}

template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::zipf& s, const std::string& what, std::uint64_t max_bytes) {
  // The rows alone first: planning a huge n takes seconds (zipf:2.8e17 took
  // over 10 s to be refused; found by fuzz/specs_fuzz).
  check_generated_size<V, I, D>(what, Shape{s.n, s.n, 0}, sample_bytes(s.n, 0), max_bytes);
  const ZipfPlan plan = zipf_plan(s, what);
  const Shape shape{s.n, s.n, plan.nnz};
  // Sizes first: the plan is host-side and small, nothing is on the device yet.
  check_generated_size<V, I, D>(what, shape, sample_bytes(s.n, plan.nnz), max_bytes);
  ZipfRows<D> model;
  model.n = s.n;
  model.seed = s.seed;
  model.rank_of = Permutation(static_cast<std::uint64_t>(s.n), s.seed, 0);
  model.lengths = to_device<D>(plan);
  return checked_build_sampled<V, I, D>(model, shape, plan.nnz, s.seed, what, max_bytes);
}

template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::circuit& s, const std::string& what, std::uint64_t max_bytes) {
  CircuitRows<D> model;
  model.n = s.n;
  model.dense_rows = s.dense_rows;
  model.dense_length = s.dense_length;
  model.seed = s.seed;
  return checked_build_sampled<V, I, D>(model, shape_of(s), s.dense_rows * s.dense_length, s.seed,
                                        what, max_bytes);
}

template <class V, class I, class D>
Csr<V, I, D> generate_one(const spec::rmat& s, const std::string& what, std::uint64_t max_bytes) {
  return generate_rmat<V, I, D>(s, what, max_bytes);
}

}  // namespace gen

/// The matrix a spec describes, built on Device (see the file comment).
/// Throws kobalt::index_overflow when rows, cols or nnz do not fit Index,
/// kobalt::format_too_large when it (with its temporaries) exceeds max_bytes
/// (0 = the device's memory), and std::invalid_argument when zipf's
/// row-length tables would exceed 2^24 entries or no scale reaches its mean,
/// all before allocating on the device.
template <class Value, class Index, class Device = default_device>
Csr<Value, Index, Device> generate(const GeneratorSpec& spec, std::uint64_t max_bytes = 0) {
  const std::string text = to_string(spec);
  compat::ScopedRegion region("kobalt::bench::generate<" + text.substr(0, text.find(':')) + ">");
  const std::string what = "generator '" + text + "'";
  return std::visit(
      [&](const auto& s) { return gen::generate_one<Value, Index, Device>(s, what, max_bytes); },
      spec);
}

}  // namespace kobalt::bench
