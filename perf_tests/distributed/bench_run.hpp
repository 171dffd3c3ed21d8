// SPDX-License-Identifier: BSD-3-Clause
// One kobalt-bench-distributed run for one (value, index) pair: per input,
// rank 0's single-device times, then the distributed product on every rank
// count, each checked against the sequential reference before it is timed.
#pragma once

#include "../format_registry.hpp"
#include "../inputs.hpp"
#include "../output_file.hpp"
#include "../provenance.hpp"
#include "options.hpp"
#include "phases.hpp"
#include "rank_share.hpp"
#include "report.hpp"
#if defined(KOBALT_BENCH_CUSPARSE)
#include "../peers/cusparse.hpp"
#endif
#if defined(KOBALT_BENCH_ROCSPARSE)
#include "../peers/rocsparse.hpp"
#endif

#include <kobalt/distributed/distributed.hpp>
#include <kobalt/kobalt.hpp>

#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt::bench::distributed {

/// The --json report: what kobalt-bench-distributed may replace.
inline const OutputKind json_report{"--json", "a kobalt-bench-distributed report",
                                    "\"kobalt_bench_distributed\""};

/// x at global column c: multiples of 1/8 (exact in float), as kobalt-bench's.
template <class Value>
Value x_entry(std::int64_t c) {
  return Value(1) + Value(c % 7) / Value(8);
}

/// This rank's part of x (the columns `cols` gives it), on the device.
template <class Value>
Kokkos::View<Value*> x_part(const kd::Partition& cols, int rank) {
  const std::vector<std::int64_t> owned = cols.owned(rank);
  Kokkos::View<Value*> x("kobalt::bench::x", owned.size());
  auto host = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < owned.size(); ++i) host(i) = x_entry<Value>(owned[i]);
  Kokkos::deep_copy(x, host);
  return x;
}

/// The sequential reference of `rows` (a Csr with global columns: a rank's
/// rows, or the whole matrix) times x_entry, computed once.
template <class Value>
class RowsReference {
 public:
  template <class Index>
  explicit RowsReference(const Csr<Value, Index, default_device>& rows) {
    const Triplets<Value, Index> t = to_triplets(rows);
    std::vector<Value> x(static_cast<std::size_t>(rows.cols()));
    for (std::size_t c = 0; c < x.size(); ++c) x[c] = x_entry<Value>(static_cast<std::int64_t>(c));
    ref_ = reference_spmv(t, 1.0, x, 0.0, std::vector<Value>(t.rows, Value(0)));
  }
  /// The rows of y outside the reference's tolerance.
  template <class YView>
  std::int64_t wrong_rows(const YView& y) const {
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < ref_.y.size(); ++i)
      wrong += ref_.template accepts<Value>(i, static_cast<double>(got(i))) ? 0 : 1;
    return wrong;
  }

 private:
  ReferenceResult ref_;
};

/// The formats and peers rank 0 runs alone: Kobalt's automatic handle
/// first (the efficiencies' reference), then the vendor's library.
inline std::vector<std::string> single_device_formats() {
  std::vector<std::string> specs = {"auto"};
#if defined(KOBALT_BENCH_CUSPARSE)
  specs.push_back("cusparse");
#endif
#if defined(KOBALT_BENCH_ROCSPARSE)
  specs.push_back("rocsparse");
#endif
  return specs;
}

/// Every single-device format on `a`, rank 0 alone, timed as the
/// distributed runs are (time_together on MPI_COMM_SELF).
template <class Value, class Index>
std::vector<SingleDeviceRow> run_single_device(const Options& o,
                                               const Csr<Value, Index, default_device>& a) {
  using View = Kokkos::View<Value*>;
  View x = x_part<Value>(kd::Partition::uniform(a.cols(), 1), 0), y("kobalt::bench::y", a.rows());
  const RowsReference<Value> reference(a);
  std::vector<SingleDeviceRow> rows;
  for (const std::string& spec : single_device_formats()) {
    SingleDeviceRow row;
    row.format = spec;
    try {
      const Operator<View> op = prepare<View>(FormatSpec::parse(spec), a);
      row.strategy = op.strategy;
      op.apply(x, y);
      if (const std::int64_t wrong = reference.wrong_rows(y); wrong > 0) {
        row.error = "y is outside the tolerance in " + std::to_string(wrong) + " rows";
        row.error_kind = "wrong_result";
      } else {
        row.time = time_together(MPI_COMM_SELF, o.timing, [&] { op.apply(x, y); });
        const double bytes = static_cast<double>(op.bytes) +
                             static_cast<double>(a.rows() + a.cols()) * sizeof(Value);
        row.gb_per_s = bytes / row.time.median * 1e-9;
      }
    } catch (const std::exception& e) {
      row.error = e.what();
      row.error_kind = error_kind_of(e);
    }
    rows.push_back(row);
  }
  return rows;
}

namespace detail {

template <class T, class = void>
struct has_choice : std::false_type {};
template <class T>
struct has_choice<T, std::void_t<decltype(std::declval<const T&>().choice())>> : std::true_type {};

/// The format a block handle runs: the automatic handle's choice, or the
/// fixed-order Csr of kobalt::reproducible.
template <class BlockHandle>
std::string format_of(const BlockHandle& h) {
  return std::visit(
      [](const auto& b) -> std::string {
        if constexpr (has_choice<std::decay_t<decltype(b)>>::value)
          return tuning::format_name(b.choice().format);
        else
          return "csr";
      },
      h);
}

/// Every rank's string, on rank 0 (in rank order). Collective.
inline std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), displs(lengths);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += lengths[r];
  }
  std::string all(static_cast<std::size_t>(rank == 0 ? total : 0), ' ');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0,
              comm);
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r) out.push_back(all.substr(displs[r], lengths[r]));
  return out;
}

}  // namespace detail

/// The transport --transport names.
inline kd::transport::choice transport_choice(const std::string& name) {
  if (name == "mpi") return kd::transport::mpi{};
  if (name == "mpi-staged") return kd::transport::mpi{kd::gpu_aware::no};
  if (name == "mpi-gpu-aware") return kd::transport::mpi{kd::gpu_aware::yes};
#if defined(KOBALT_HAVE_NCCL)
  if (name == "nccl") return kd::transport::nccl{};
#else
  if (name == "nccl")
    throw usage_error("--transport nccl: this build has no NCCL transport (KOBALT_ENABLE_NCCL)");
#endif
  return kd::transport::automatic{};
}

/// The distributed product of `in` on every rank of `comm`: spread, set up,
/// checked, timed phase by phase. Collective; the row is complete on rank 0.
template <class Value, class Index>
RanksRow run_ranks(const Options& o, const SpreadInput<Value, Index>& in, MPI_Comm comm, bool weak) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  RanksRow row;
  row.ranks = size;
  row.scaling = weak ? "weak" : "strong";
  row.matrix = weak ? structured(in.spec, size)->name : in.name;
  try {
    const kd::transport::choice choice = transport_choice(o.transport);
    const auto a = spread(in, comm, weak);
    row.rows = a.rows();
    row.cols = a.cols();
    row.partition = weak ? "contiguous, one share per rank" : "contiguous, balanced by nonzeros";
    const Kokkos::DefaultExecutionSpace exec;
    auto h = o.reproducible ? kd::make_handle(exec, a, kobalt::reproducible, choice)
                            : kd::make_handle(exec, a, kobalt::automatic{}, choice);
    row.transport = h.transport();
    const auto x = x_part<Value>(a.col_partition(), rank);
    Kokkos::View<Value*> y("kobalt::bench::y", a.local_rows());
    kd::spmv(exec, h, Value(1), a, x, Value(0), y);
    std::int64_t wrong = 0;
    kd::collectively(comm, [&] { wrong = RowsReference<Value>(a.local()).wrong_rows(y); });
    std::int64_t all_wrong = 0;
    MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT64_T, MPI_SUM, comm);
    if (all_wrong > 0) {
      row.error = "y is outside the tolerance in " + std::to_string(all_wrong) + " rows";
      row.error_kind = "wrong_result";
      return row;
    }
    row.split = time_split(comm, o.timing, h, a, x, y);

    const auto& d = h.diagonal_block();
    const auto& od = h.off_diagonal_block();
    const std::int64_t mine[7] = {a.local_rows(),
                                  a.local().nnz(),
                                  d.nnz(),
                                  od.nnz(),
                                  static_cast<std::int64_t>(h.sent_bytes()),
                                  static_cast<std::int64_t>(h.received_bytes()),
                                  static_cast<std::int64_t>(h.plan().recv_ranks.size())};
    std::vector<std::int64_t> all(7 * static_cast<std::size_t>(size));
    MPI_Gather(mine, 7, MPI_INT64_T, all.data(), 7, MPI_INT64_T, 0, comm);
    const auto diagonal = detail::gather_strings(comm, detail::format_of(h.diagonal_handle()));
    const auto off_diagonal = detail::gather_strings(
        comm, h.ghosts().empty() ? std::string("none") : detail::format_of(h.off_diagonal_handle()));
    // Each rank's blocks, its x, its ghosts and its y, read or written once.
    const double bytes = static_cast<double>(d.bytes() + (h.ghosts().empty() ? 0 : od.bytes())) +
                         static_cast<double>(a.local_cols() + a.local_rows() + h.ghosts().size()) *
                             sizeof(Value);
    double all_bytes = 0;
    MPI_Reduce(&bytes, &all_bytes, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    if (rank == 0) {
      for (int r = 0; r < size; ++r) {
        const std::int64_t* p = &all[7 * static_cast<std::size_t>(r)];
        row.parts.push_back(RankPart{p[0], p[1], p[2], p[3], p[4], p[5], p[6], diagonal[r], off_diagonal[r]});
        row.nnz += p[1];
      }
      row.gb_per_s = all_bytes / row.split.apply.median * 1e-9;
    }
  } catch (const std::exception& e) {
    row.error = e.what();
    row.error_kind = error_kind_of(e);
  }
  return row;
}

/// Checks the command line's inputs and --json path before anything runs
/// (every rank alike). Throws usage_error.
template <class Value, class Index>
void check_command_line(const Options& o) {
  try {
    if (!o.json.empty()) check_output(json_report, o.json, o.inputs);
    for (const auto& in : o.inputs) {
      check_input<Value, Index>(in);
      const bool file = std::filesystem::exists(in);
      if (o.scaling == "weak" && (file || !structured(parse_generator(in), 2)))
        throw std::invalid_argument("'" + in + "': --scaling weak grows lap2d, lap3d, stencil27 "
                                    "and fem grids; use --scaling strong");
    }
    (void)transport_choice(o.transport);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw usage_error(e.what());
  }
}

/// Runs every input on every rank count. Exit status (the same on every
/// rank): 4 when a result was wrong; else 3 when the report could not be
/// written; else 1 when a run or an input failed; else 0.
template <class Value, class Index>
int run(const Options& o, const Provenance& provenance) {
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  check_command_line<Value, Index>(o);
  const std::vector<int> counts = rank_counts(o, world);

  RunInfo info;
  info.provenance = provenance;
  info.execution_space = Kokkos::DefaultExecutionSpace::name();
  info.device = device_name();
  info.value_type = o.value;
  info.index_type = o.index;
  info.world_ranks = world;
  info.scaling = o.scaling;
  info.transport = o.transport;
  info.reproducible = o.reproducible;
  info.timing = o.timing;

  bool wrong = false, failed = false, unwritten = false;
  std::vector<InputReport> reports;
  if (rank == 0) print_header(stdout);
  for (std::size_t k = 0; k < o.inputs.size(); ++k) {
    InputReport rep;
    rep.source = o.inputs[k];
    rep.name = o.inputs[k];
    SpreadInput<Value, Index> in;
    try {
      kd::collectively(MPI_COMM_WORLD,
                       [&] { in = load<Value, Index>(o.inputs[k], o.scaling == "weak", rank); });
      // Weak runs on 1 rank are the strong ones: the same matrix and split.
      const bool grows = in.generated && structured(in.spec, 2).has_value();
      std::vector<bool> scalings;
      if (o.scaling != "weak") scalings.push_back(false);
      if (o.scaling != "strong" && grows) scalings.push_back(true);
      rep.name = in.name;
      std::optional<double> single;
      if (rank == 0) {
        std::cerr << "[kobalt-bench-distributed] " << k + 1 << "/" << o.inputs.size() << " "
                  << rep.name << ": one device\n";
        try {
          const auto a = single_device(in);
          rep.rows = a.rows();
          rep.cols = a.cols();
          rep.nnz = a.nnz();
          rep.single_device = run_single_device<Value, Index>(o, a);
        } catch (const std::exception& e) {
          rep.error = e.what();
        }
        for (const auto& r : rep.single_device) {
          print_single_device(stdout, rep, r);
          wrong = wrong || r.error_kind == std::optional<std::string>("wrong_result");
          failed = failed || r.error_kind == std::optional<std::string>("failed");
          if (r.format == "auto" && !r.error) single = r.time.median;
        }
        failed = failed || rep.error.has_value();
      }
      for (const bool weak : scalings)
        for (const int count : counts) {
          if (weak && count == 1 && o.scaling == "both") continue;
          MPI_Comm comm = MPI_COMM_NULL;
          MPI_Comm_split(MPI_COMM_WORLD, rank < count ? 0 : MPI_UNDEFINED, rank, &comm);
          if (comm == MPI_COMM_NULL) continue;
          if (rank == 0)
            std::cerr << "[kobalt-bench-distributed] " << rep.name << ": " << count << " ranks, "
                      << (weak ? "weak" : "strong") << "\n";
          RanksRow row = run_ranks(o, in, comm, weak);
          MPI_Comm_free(&comm);
          if (rank != 0) continue;
          if (single && !row.error)
            row.efficiency = *single / (row.split.apply.median * (weak ? 1 : count));
          print_row(stdout, row);
          std::fflush(stdout);
          wrong = wrong || row.error_kind == std::optional<std::string>("wrong_result");
          failed = failed || row.error_kind == std::optional<std::string>("failed");
          rep.runs.push_back(row);
        }
    } catch (const std::exception& e) {
      rep.error = e.what();
      failed = true;
      if (rank == 0) std::cerr << "kobalt-bench-distributed: " << rep.name << ": " << e.what() << "\n";
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) continue;
    reports.push_back(rep);
    if (!o.json.empty()) {
      std::string error;
      const bool ok = replace_file(
          json_report, o.json, o.inputs,
          [&](const std::string& file) {
            std::ofstream out(file, std::ios::trunc);
            if (!out) return false;
            write_json(out, info, reports);
            out.close();
            return !out.fail();
          },
          error);
      if (!ok) {
        std::cerr << "kobalt-bench-distributed: " << error << "\n";
        unwritten = true;
      }
    }
  }
  int status = wrong ? 4 : unwritten ? 3 : failed ? 1 : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status;
}

}  // namespace kobalt::bench::distributed
