// SPDX-License-Identifier: BSD-3-Clause
// The distributed product y = alpha*A*x + beta*y: set up once (the split into
// diagonal and off-diagonal blocks, a handle for each, the halo plan and its
// transport), applied many times with the exchange behind the diagonal
// block's product.
#pragma once

#include "../plan/auto_handle.hpp"
#include "../plan/handle.hpp"
#include "../plan/spmv.hpp"
#include "../tuning/reproducible.hpp"
#include "blocks.hpp"
#include "collective_errors.hpp"
#include "gather.hpp"
#include "halo_plan.hpp"
#include "matrix.hpp"
#include "transport.hpp"

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

namespace kobalt::distributed {

/// A distributed matrix's product, set up once (collectively) on `exec`.
/// Each rank's rows are split into the diagonal block (columns whose x
/// entries it holds) and the off-diagonal block (ghost columns), each behind
/// an automatic handle (kobalt::automatic), or a fixed-order Csr handle with
/// kobalt::reproducible. An apply posts the receives, packs and sends on
/// the caller's instance, multiplies the diagonal block, waits, and adds the
/// off-diagonal block's product (beta = 1).
///
/// One apply at a time per handle (it owns the exchange's buffers): applies
/// on another instance than the previous one's need that instance fenced
/// first. Moved, not copied; a default-constructed or moved-from handle is
/// empty().
template <class Value, class Index, class Device,
          class ExecutionSpace = typename Device::execution_space>
class DistributedHandle {
 public:
  using matrix_type = DistributedMatrix<Value, Index, Device>;  ///< what spmv takes
  using execution_space = ExecutionSpace;                       ///< where setup and applies run
  using block_type = Csr<Value, Index, Device>;                 ///< either block, local columns
  /// A block's handle: automatic, or a Csr one (kobalt::reproducible).
  using block_handle_type =
      std::variant<AutoHandle<block_type, ExecutionSpace>, SpmvHandle<block_type, ExecutionSpace>>;
  /// The halo exchange: MpiTransport, or NcclTransport where built and fitting.
  using transport_type = detail::transports<Value, Device, ExecutionSpace>;

  /// An empty handle, to be assigned a made one.
  DistributedHandle() = default;
  /// Sets up `a`'s product with automatic handles on both blocks and the
  /// transport `choice` resolves to. Collective over a.comm(); an error on
  /// any rank is thrown on every rank.
  DistributedHandle(const ExecutionSpace& exec, const matrix_type& a, const automatic& options = {},
                    const transport::choice& choice = {})
      : state_(setup(exec, a, choice, [&](const block_type& b) -> block_handle_type {
          return AutoHandle<block_type, ExecutionSpace>(exec, b, options);
        })) {}
  /// The same with fixed-order Csr handles on both blocks: the same bits on
  /// every apply, for a given partition (docs/distributed.md).
  DistributedHandle(const ExecutionSpace& exec, const matrix_type& a, reproducible_t,
                    const transport::choice& choice = {})
      : state_(setup(exec, a, choice, [&](const block_type& b) -> block_handle_type {
          return SpmvHandle<block_type, ExecutionSpace>(exec, b, kobalt::reproducible);
        })) {}

  /// True for a default-constructed or moved-from handle.
  bool empty() const { return !state_; }
  /// The matrix the handle was made for.
  const matrix_type& matrix() const { return made().matrix; }
  /// The diagonal block: this rank's rows, the columns of its x entries.
  const block_type& diagonal_block() const { return made().blocks.diagonal; }
  /// The off-diagonal block: one column per ghost; this rank's rows, or only
  /// those that touch a ghost where few do (off_diagonal_rows()).
  const block_type& off_diagonal_block() const { return made().blocks.off_diagonal; }
  /// The local row of each off-diagonal block row where the block keeps only
  /// the rows that touch a ghost; empty where it holds every local row.
  const Kokkos::View<Index*, Device>& off_diagonal_rows() const {
    return made().blocks.off_diagonal_rows;
  }
  /// The diagonal block's handle.
  const block_handle_type& diagonal_handle() const { return made().diagonal; }
  /// The off-diagonal block's handle.
  const block_handle_type& off_diagonal_handle() const { return made().off_diagonal; }
  /// Global column of each ghost (the off-diagonal block's columns), grouped
  /// by owning rank, increasing within each.
  const std::vector<std::int64_t>& ghosts() const { return made().blocks.ghosts; }
  /// Who sends which x entries to whom.
  const HaloPlan& plan() const {
    return std::visit([](const auto& t) -> const HaloPlan& { return t.plan(); }, made().transport);
  }
  /// Bytes this rank sends per apply.
  std::uint64_t sent_bytes() const { return plan().sent_entries() * sizeof(Value); }
  /// Bytes this rank receives per apply.
  std::uint64_t received_bytes() const { return plan().received_entries() * sizeof(Value); }
  /// The transport's name.
  std::string transport() const {
    return std::visit([](const auto& t) { return t.name(); }, made().transport);
  }
  /// Host bytes the transport holds for staging (0 where it needs none).
  std::uint64_t staging_bytes() const {
    return std::visit([](const auto& t) { return t.staging_bytes(); }, made().transport);
  }
  /// True when both blocks add in a fixed order: with the fixed exchange,
  /// the same bits on every apply.
  bool reproducible() const {
    return std::visit([](const auto& h) { return h.reproducible(); }, made().diagonal) &&
           std::visit([](const auto& h) { return h.reproducible(); }, made().off_diagonal);
  }

  /// This rank's part: its rows, the halo (entries and bytes each way, the
  /// neighbours), the transport, and each block's describe().
  std::string describe() const {
    if (empty()) return "empty handle (default-constructed or moved from)";
    const State& s = *state_;
    const HaloPlan& p = plan();
    std::ostringstream os;
    os << "rank " << s.matrix.rank() << " of " << s.matrix.ranks() << ": " << s.matrix.local_rows()
       << " rows, " << s.matrix.local_cols() << " x entries; rows: "
       << s.matrix.row_partition().describe() << "; halo: sends " << p.sent_entries()
       << " entries (" << sent_bytes() << " bytes) to " << p.send_ranks.size()
       << " ranks, receives " << p.received_entries() << " entries (" << received_bytes()
       << " bytes) from " << p.recv_ranks.size() << " ranks; transport: " << transport();
    if (staging_bytes() > 0) os << " (" << staging_bytes() << " bytes)";
    os << (reproducible() ? "; summation: fixed order (the same bits on every apply)"
                          : "; summation: atomics in a block (the last bits may change)");
    os << "; diagonal block " << s.blocks.diagonal.rows() << " x " << s.blocks.diagonal.cols()
       << ", " << s.blocks.diagonal.nnz() << " entries: " << block_describe(s.diagonal);
    os << "; off-diagonal block " << s.blocks.off_diagonal.rows() << " x "
       << s.blocks.off_diagonal.cols() << ", " << s.blocks.off_diagonal.nnz() << " entries"
       << (s.blocks.compressed() ? " (compressed: only the rows that touch a ghost)" : "")
       << ": "
       << (s.blocks.ghosts.empty() ? std::string("no ghosts, not applied")
                                   : block_describe(s.off_diagonal));
    return os.str();
  }

  /// Writes the local Csr's current values (changed in place, same
  /// pattern) into both blocks and their handles' copies, on `exec`. Local:
  /// no communication.
  void update_values(const ExecutionSpace& exec) {
    State& s = made("kobalt::distributed::DistributedHandle::update_values");
    const auto& values = s.matrix.local().values();
    detail::gather(exec, "kobalt::distributed::update_values", s.blocks.diagonal_values, values,
                   s.blocks.diagonal_map);
    detail::gather(exec, "kobalt::distributed::update_values", s.blocks.off_diagonal_values,
                   values, s.blocks.off_diagonal_map);
    std::visit([&](auto& h) { h.update_values(exec); }, s.diagonal);
    std::visit([&](auto& h) { h.update_values(exec); }, s.off_diagonal);
  }
  /// The same after switching to `a`'s values: a matrix whose local Csr
  /// shares this handle's row pointer and column arrays; later applies take
  /// `a`. Throws invalid_parameter for another structure (local: no
  /// communication).
  void update_values(const ExecutionSpace& exec, const matrix_type& a) {
    State& s = made("kobalt::distributed::DistributedHandle::update_values");
    kobalt::detail::check_same_structure(s.matrix.local(), a.local(),
                                         "kobalt::distributed::DistributedHandle::update_values");
    s.matrix = a;
    update_values(exec);
  }

  /// y = alpha*A*x + beta*y on this rank's part (spmv(exec, handle, ...)).
  template <class XView, class YView>
  void apply(const ExecutionSpace& exec, typename YView::const_value_type alpha,
             const matrix_type& a, const XView& x, typename YView::const_value_type beta,
             const YView& y) {
    static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value,
                  "kobalt::distributed::spmv: x and y must be Kokkos Views");
    static_assert(compat::rank_v<XView> == 1 && compat::rank_v<YView> == 1,
                  "kobalt::distributed::spmv: x and y must be rank-1 Views (one right-hand side)");
    static_assert(std::is_same_v<typename XView::non_const_value_type, Value> &&
                      std::is_same_v<typename YView::value_type, Value>,
                  "kobalt::distributed::spmv: x and y must hold the matrix's value type "
                  "(the halo buffers are of that type)");
    // Every rank learns of a bad argument on any rank before the exchange.
    collectively(a.comm(), [&] {
      check_x("kobalt::distributed::spmv", a, x);
      kobalt::detail::check_no_alias(x, y);
      if (static_cast<std::int64_t>(y.extent(0)) != a.local_rows())
        throw dimension_mismatch("kobalt::distributed::spmv: this rank holds " +
                                 std::to_string(a.local_rows()) + " entries of y, got " +
                                 std::to_string(y.extent(0)));
    });
    std::visit(
        [&](auto& t) {
          if constexpr (std::decay_t<decltype(t)>::stream_ordered) {
            // The diagonal product is enqueued before the exchange's kernels:
            // so queued, they delay it less than when they come first.
            t.enter(exec);
            multiply_diagonal(exec, alpha, x, beta, y);
            t.send(x);
            // The compressed block's product follows the ghosts on the
            // exchange's own stream, beside the diagonal product; only its
            // addition into y waits for both.
            if (state_->blocks.compressed()) {
              multiply_compressed(t.side(), alpha, t.ghosts());
              t.finish(exec);
              add_compressed(exec, y);
              return;
            }
          } else {
            t.start(exec, x);
            multiply_diagonal(exec, alpha, x, beta, y);
          }
          add_off_diagonal(exec, alpha, t.finish(exec), y);
        },
        state_->transport);
  }

  /// The exchange alone, on the handle's transport: this rank's ghost
  /// entries of x (in the order of ghosts()) from the ranks that own them,
  /// ordered before later work on `exec`. The View is the handle's buffer,
  /// valid until its next exchange or apply. Collective, with the argument
  /// checks of an apply.
  template <class XView>
  Kokkos::View<const Value*, Device> exchange(const ExecutionSpace& exec, const matrix_type& a,
                                              const XView& x) {
    static_assert(Kokkos::is_view<XView>::value && compat::rank_v<XView> == 1 &&
                      std::is_same_v<typename XView::non_const_value_type, Value>,
                  "kobalt::distributed::DistributedHandle::exchange: x must be a rank-1 View of "
                  "the matrix's value type");
    collectively(a.comm(),
                 [&] { check_x("kobalt::distributed::DistributedHandle::exchange", a, x); });
    return std::visit(
        [&](auto& t) -> Kokkos::View<const Value*, Device> {
          t.start(exec, x);
          return t.finish(exec);
        },
        state_->transport);
  }

  /// The diagonal block's product alone, y = alpha*A_d*x + beta*y on this
  /// rank (the step an apply hides the exchange behind). Local.
  template <class XView, class YView>
  void multiply_diagonal(const ExecutionSpace& exec, typename YView::const_value_type alpha,
                         const XView& x, typename YView::const_value_type beta, const YView& y) const {
    std::visit([&](const auto& h) { kobalt::spmv(exec, h, alpha, h.matrix(), x, beta, y); },
               made("kobalt::distributed::DistributedHandle::multiply_diagonal").diagonal);
  }
  /// The off-diagonal block's product alone, y += alpha*A_o*ghosts on this
  /// rank (the last step of an apply; `ghosts` in the order of ghosts()).
  /// Local; nothing where the rank has no ghosts.
  template <class GhostView, class YView>
  void add_off_diagonal(const ExecutionSpace& exec, typename YView::const_value_type alpha,
                        const GhostView& ghosts, const YView& y) const {
    const State& s = made("kobalt::distributed::DistributedHandle::add_off_diagonal");
    if (s.blocks.ghosts.empty()) return;
    if (s.blocks.compressed()) {
      multiply_compressed(exec, alpha, ghosts);
      add_compressed(exec, y);
      return;
    }
    std::visit([&](const auto& h) { kobalt::spmv(exec, h, alpha, h.matrix(), ghosts, Value(1), y); },
               s.off_diagonal);
  }

 private:
  /// The communicator's duplicate the halos travel on, freed with the
  /// handle (unless MPI has been finalized by then).
  struct Comm {
    MPI_Comm comm = MPI_COMM_NULL;
    explicit Comm(MPI_Comm user) { MPI_Comm_dup(user, &comm); }
    ~Comm() {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized) MPI_Comm_free(&comm);
    }
    Comm(const Comm&) = delete;
    Comm& operator=(const Comm&) = delete;
  };
  struct State {
    matrix_type matrix;
    detail::Blocks<Value, Index, Device> blocks;
    Comm comm;
    transport_type transport;
    block_handle_type diagonal, off_diagonal;
    State(matrix_type m, detail::Blocks<Value, Index, Device> b)
        : matrix(std::move(m)), blocks(std::move(b)), comm(matrix.comm()) {}
  };

  template <class MakeBlockHandle>
  static std::unique_ptr<State> setup(const ExecutionSpace& exec, const matrix_type& a,
                                      const transport::choice& choice,
                                      MakeBlockHandle&& make_block_handle) {
    const std::string who = "kobalt::distributed::make_handle";
    detail::Blocks<Value, Index, Device> blocks;
    collectively(a.comm(), [&] {
      blocks = detail::split_blocks(exec, a.local(), a.col_partition(), a.rank());
      // MPI counts are ints.
      constexpr auto most = static_cast<std::size_t>(std::numeric_limits<int>::max());
      if (blocks.ghosts.size() > most || static_cast<std::size_t>(a.local_cols()) > most)
        throw index_overflow(who + ": " + std::to_string(blocks.ghosts.size()) + " ghosts and " +
                             std::to_string(a.local_cols()) + " x entries on this rank: more than " +
                             "one MPI message holds");
    });
    auto s = std::make_unique<State>(a, std::move(blocks));
    s->transport = detail::make_transport<Value, Device>(
        exec, s->comm.comm,
        detail::make_halo_plan(s->comm.comm, a.col_partition(), s->blocks.ghosts,
                               s->blocks.ghost_owners),
        choice);
    collectively(a.comm(), [&] {
      s->diagonal = make_block_handle(s->blocks.diagonal);
      s->off_diagonal = make_block_handle(s->blocks.off_diagonal);
    });
    return s;
  }

  /// The compressed off-diagonal block's product into its own short vector, on `inst`.
  template <class GhostView>
  void multiply_compressed(const ExecutionSpace& inst, Value alpha, const GhostView& ghosts) const {
    const State& s = *state_;
    std::visit(
        [&](const auto& h) {
          kobalt::spmv(inst, h, alpha, h.matrix(), ghosts, Value(0), s.blocks.off_diagonal_y);
        },
        s.off_diagonal);
  }
  /// y(rows) += that vector, on `exec`.
  template <class YView>
  void add_compressed(const ExecutionSpace& exec, const YView& y) const {
    const State& s = *state_;
    detail::scatter_add(exec, "kobalt::distributed::add_off_diagonal", y, s.blocks.off_diagonal_y,
                        s.blocks.off_diagonal_rows);
  }

  static std::string block_describe(const block_handle_type& h) {
    return std::visit([](const auto& b) { return b.describe(); }, h);
  }
  /// Throws on this rank where the handle is empty, was made for another
  /// matrix than `a`, or x is not this rank's part of x (`who`: the call).
  template <class XView>
  void check_x(const char* who, const matrix_type& a, const XView& x) const {
    kobalt::detail::check_handle_matrix(made(who).matrix.local(), a.local());
    if (static_cast<std::int64_t>(x.extent(0)) != a.local_cols())
      throw dimension_mismatch(std::string(who) + ": this rank holds " +
                               std::to_string(a.local_cols()) + " entries of x, got " +
                               std::to_string(x.extent(0)));
  }
  const State& made() const { return made_state(state_.get(), "kobalt::distributed::DistributedHandle"); }
  State& made(const char* who) { return made_state(state_.get(), who); }
  const State& made(const char* who) const { return made_state(state_.get(), who); }
  template <class S>
  static S& made_state(S* s, const char* who) {
    if (s == nullptr)
      throw invalid_parameter(std::string(who) +
                              ": the handle is empty (default-constructed or moved from)");
    return *s;
  }

  std::unique_ptr<State> state_;
};

/// make_handle(exec, a[, kobalt::automatic{n}[, transport]]): a distributed
/// handle with automatic block handles. Collective.
template <class ExecutionSpace, class Value, class Index, class Device>
DistributedHandle<Value, Index, Device, ExecutionSpace> make_handle(
    const ExecutionSpace& exec, const DistributedMatrix<Value, Index, Device>& a,
    const automatic& options = {}, const transport::choice& choice = {}) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::distributed::make_handle: the first argument must be an execution space "
                "instance");
  return DistributedHandle<Value, Index, Device, ExecutionSpace>(exec, a, options, choice);
}

/// make_handle(exec, a, kobalt::reproducible[, transport]): fixed-order
/// block handles, the same bits on every apply for a given partition.
/// Collective.
template <class ExecutionSpace, class Value, class Index, class Device>
DistributedHandle<Value, Index, Device, ExecutionSpace> make_handle(
    const ExecutionSpace& exec, const DistributedMatrix<Value, Index, Device>& a, reproducible_t,
    const transport::choice& choice = {}) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::distributed::make_handle: the first argument must be an execution space "
                "instance");
  return DistributedHandle<Value, Index, Device, ExecutionSpace>(exec, a, kobalt::reproducible,
                                                                 choice);
}

/// y = alpha*A*x + beta*y over every rank of a.comm(): x and y are this
/// rank's parts (a.local_cols() and a.local_rows() entries, in the order of
/// its partitions' owned()), rank-1 Views of the matrix's value type.
/// beta == 0 overwrites y. Collective; a bad argument on any rank throws on
/// every rank (one MPI_Allreduce of an error flag per apply).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void spmv(const ExecutionSpace& exec, DistributedHandle<Value, Index, Device, ExecutionSpace>& handle,
          typename YView::const_value_type alpha, const DistributedMatrix<Value, Index, Device>& a,
          const XView& x, typename YView::const_value_type beta, const YView& y) {
  handle.apply(exec, alpha, a, x, beta, y);
}

}  // namespace kobalt::distributed
