// SPDX-License-Identifier: BSD-3-Clause
// Kernel strategies: for every format, the kernels that can run its spmv, as
// small tag types in a std::variant (dispatched on type, never on names;
// the first alternative is the default). Each tag declares the facts tuning
// needs, with no default: its `name` and whether it adds into y in a
// `fixed_order` (no atomics on y); a tag missing either does not compile.
// Its kernel side (workspace, launches) is its record in kernels/
// (detail::strategy_kernel), its launch shapes a select() overload.
//
// Names follow seed 003: CSR "basic" is one thread per row (what 000 calls
// "classical"), "classical" is a subwarp per row.
#pragma once

#include "../formats/aligned_coo.hpp"
#include "../formats/coo.hpp"
#include "../formats/csr.hpp"
#include "../formats/csrk.hpp"
#include "../formats/ell.hpp"
#include "../formats/hybrid.hpp"
#include "../formats/sellp.hpp"

#include <string>
#include <type_traits>
#include <variant>

namespace kobalt {

namespace tuning {
/// True when tag S declares `static constexpr const char* name`.
template <class S, class = void>
inline constexpr bool declares_name = false;
template <class S>
inline constexpr bool declares_name<S, std::void_t<decltype(S::name)>> = true;
/// True when tag S declares `static constexpr bool fixed_order`.
template <class S, class = void>
inline constexpr bool declares_fixed_order = false;
template <class S>
inline constexpr bool declares_fixed_order<S, std::void_t<decltype(S::fixed_order)>> = true;

/// Checks the facts every strategy tag declares: no default, so a new
/// kernel cannot be reported reproducible (or nameless) by omission.
template <class S>
struct declares_facts {
  static_assert(declares_name<S>,
                "kobalt: a strategy tag declares static constexpr const char* name");
  static_assert(declares_fixed_order<S>,
                "kobalt: a strategy tag declares static constexpr bool fixed_order (false when "
                "threads add into one entry of y with atomics)");
  static constexpr bool value = true;  ///< true once the asserts hold
};
/// True for a strategy variant whose every alternative declares its facts.
template <class Variant>
inline constexpr bool every_tag_declares = false;
template <class... S>
inline constexpr bool every_tag_declares<std::variant<S...>> = (declares_facts<S>::value && ...);

namespace tags {
/// The name a strategy tag declares ("merge_path"); found as csr::name(s)
/// and the like through each format namespace's using-declaration.
template <class S, class = decltype(S::name)>
constexpr const char* name(S) {
  return S::name;
}
}  // namespace tags
}  // namespace tuning

namespace csr {
/// Picks basic, classical, load_balance or merge_path from the matrix
/// statistics and the device (003 Alg. 3 with measured departures; hosts
/// always merge_path: tuning::resolve_csr); the handle runs, and names, the pick.
struct automatic {
  static constexpr const char* name = "automatic";  ///< what name(s) returns
  /// What every kernel it may pick declares (asserted below the variant).
  static constexpr bool fixed_order = true;
};
/// A subwarp per row, subwarp = largest power of two <= the longest row, at
/// most the warp (003 §3.2, Alg. 2).
struct classical {
  static constexpr const char* name = "classical";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// One thread per row (003 "basic"; 000 §3.3 calls it "classical").
struct basic {
  static constexpr const char* name = "basic";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// Equal chunks of nonzeros per warp whatever the rows (000 §3.3 CSR-I),
/// split rows combined in chunk order: deterministic, one launch
/// (kernels/csr_load_balance.hpp). Its handle holds the chunk partition.
struct load_balance {
  static constexpr const char* name = "load_balance";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// Equal tiles of the merge path of row ends and nonzeros per warp (Merrill
/// & Garland, SC'16), open rows finished in tile order: in the tile kernel
/// while no run of tiles inside one row is longer than a warp, else by a
/// fixup launch (hosts: by the calling thread). Deterministic, no atomics on
/// y (kernels/csr_merge_path.hpp). Its handle holds the tile starts.
struct merge_path {
  static constexpr const char* name = "merge_path";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<automatic, classical, basic, load_balance, merge_path>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
static_assert(automatic::fixed_order == (classical::fixed_order && basic::fixed_order &&
                                         load_balance::fixed_order && merge_path::fixed_order),
              "csr::automatic adds in a fixed order exactly when every kernel it picks does");
}  // namespace csr

namespace coo {
/// 000 §3.2.1 Alg. 1: equal contiguous chunks per warp, coalesced lane
/// strides, a segmented scan and one atomic per row segment; y is scaled by
/// beta in a separate launch first (kernels/coo_segmented.hpp).
struct segmented {
  static constexpr const char* name = "segmented";  ///< what name(s) returns
  static constexpr bool fixed_order = false;  ///< adds into y with atomics
};
/// Alg. 1's chunks with beta applied in the same launch and split rows
/// combined in chunk order instead of atomics: deterministic, one launch
/// (kernels/coo_load_balance.hpp). Its handle holds the split rows' partial sums.
struct load_balance {
  static constexpr const char* name = "load_balance";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<segmented, load_balance>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
}  // namespace coo

namespace ell {
/// Picks rows or column_groups for the device (tuning::resolve_ell).
struct automatic {
  static constexpr const char* name = "automatic";  ///< what name(s) returns
  /// What every kernel it may pick declares (asserted below the variant).
  static constexpr bool fixed_order = true;
};
/// A subwarp per row, vector lanes over its slots, early stop at the first
/// padding slot; several subwarps per row with atomics when the rows are
/// few and wide (000 §3.4, Alg. 3-4; kernels/ell_rows.hpp).
struct rows {
  static constexpr const char* name = "rows";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// Groups of threads over one slot column of consecutive rows, groups of a
/// row added in team scratch (003 §3.3, Alg. 5; kernels/ell_column_groups.hpp).
struct column_groups {
  static constexpr const char* name = "column_groups";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<automatic, rows, column_groups>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
static_assert(automatic::fixed_order == (rows::fixed_order && column_groups::fixed_order),
              "ell::automatic adds in a fixed order exactly when every kernel it picks does");
}  // namespace ell

namespace sellp {
/// Whole slices per team, t threads per row (t = the stride factor),
/// partial sums added in team scratch (001 Fig. 2-3; t = 1 is 000 §3.5
/// Alg. 5's thread per row).
struct slices {
  static constexpr const char* name = "slices";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<slices>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
}  // namespace sellp

namespace hybrid {
/// The ELL kernel writes y (beta applied), then the segmented COO kernel
/// accumulates (000 §4).
struct ell_then_coo {
  static constexpr const char* name = "ell_then_coo";  ///< what name(s) returns
  static constexpr bool fixed_order = false;  ///< adds into y with atomics
};
/// The ELL kernel writes y (beta applied), then the COO part runs as
/// coo::load_balance (split rows combined in chunk order): no atomics, the
/// same bits on every run. Its handle holds the COO part's partial sums.
struct ell_then_load_balance {
  static constexpr const char* name = "ell_then_load_balance";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<ell_then_coo, ell_then_load_balance>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
}  // namespace hybrid

namespace csrk {
/// GPUSpMV-3 / 3.5 on GPUs, Listing 1's nested loops on CPUs (002 §3).
struct groups {
  static constexpr const char* name = "groups";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<groups>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
}  // namespace csrk

namespace aligned_coo {
/// The seg kernel with beta applied there (to its own rows as it stores
/// them, to the other rows from a list its handle holds), then the flat part
/// as COO with atomics (004 §IV-D): two launches.
struct seg_then_flat {
  static constexpr const char* name = "seg_then_flat";  ///< what name(s) returns
  static constexpr bool fixed_order = false;  ///< adds into y with atomics
};
/// The flat part as coo::load_balance with beta applied there (split rows
/// combined in chunk order), then the seg kernel adds: no atomics, the same
/// bits on every run, two launches. Its handle holds the flat part's
/// partial sums.
struct flat_then_seg {
  static constexpr const char* name = "flat_then_seg";  ///< what name(s) returns
  static constexpr bool fixed_order = true;  ///< no atomics on y
};
/// The kernel strategies of this format; the first is the default.
using strategy = std::variant<seg_then_flat, flat_then_seg>;
static_assert(tuning::every_tag_declares<strategy>);
using tuning::tags::name;  ///< name(s): the name its tag declares
}  // namespace aligned_coo

/// Name of the strategy a variant holds ("classical").
template <class... Strategies>
std::string strategy_name(const std::variant<Strategies...>& s) {
  return std::visit([](auto v) { return std::string(name(v)); }, s);
}

namespace tuning {
/// The strategy variant of a format and the format's name in labels.
template <class Matrix>
struct format_strategy;

/// Csr: strategies csr::strategy, labelled "csr".
template <class V, class I, class D, class O>
struct format_strategy<Csr<V, I, D, O>> {
  using type = csr::strategy;  ///< The strategy variant.
  static constexpr const char* format = "csr";  ///< The name in labels.
};
/// Coo: strategies coo::strategy, labelled "coo".
template <class V, class I, class D>
struct format_strategy<Coo<V, I, D>> {
  using type = coo::strategy;  ///< The strategy variant.
  static constexpr const char* format = "coo";  ///< The name in labels.
};
/// Ell: strategies ell::strategy, labelled "ell".
template <class V, class I, class D>
struct format_strategy<Ell<V, I, D>> {
  using type = ell::strategy;  ///< The strategy variant.
  static constexpr const char* format = "ell";  ///< The name in labels.
};
/// Sellp: strategies sellp::strategy, labelled "sellp".
template <class V, class I, class D>
struct format_strategy<Sellp<V, I, D>> {
  using type = sellp::strategy;  ///< The strategy variant.
  static constexpr const char* format = "sellp";  ///< The name in labels.
};
/// Hybrid: strategies hybrid::strategy, labelled "hybrid".
template <class V, class I, class D>
struct format_strategy<Hybrid<V, I, D>> {
  using type = hybrid::strategy;  ///< The strategy variant.
  static constexpr const char* format = "hybrid";  ///< The name in labels.
};
/// CsrK: strategies csrk::strategy, labelled "csrk".
template <class V, class I, class D>
struct format_strategy<CsrK<V, I, D>> {
  using type = csrk::strategy;  ///< The strategy variant.
  static constexpr const char* format = "csrk";  ///< The name in labels.
};
/// AlignedCoo: strategies aligned_coo::strategy, labelled "aligned_coo".
template <class V, class I, class D>
struct format_strategy<AlignedCoo<V, I, D>> {
  using type = aligned_coo::strategy;  ///< The strategy variant.
  static constexpr const char* format = "aligned_coo";  ///< The name in labels.
};
}  // namespace tuning

}  // namespace kobalt
