// SPDX-License-Identifier: BSD-3-Clause
// Value maps: a copy made once by a conversion keeps, for each of its value
// slots, the source slot it holds (0 for padding), so new source values
// reach the copy by one gather per value array instead of a new conversion
// (what cusparseSpMatSetValues and mkl_sparse_update_values offer).
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"
#include "../range.hpp"
#include "../scalar.hpp"
#include "format_arrays.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt {

namespace detail {
/// Doubles hold every integer up to 2^53 exactly: the largest slot count a
/// conversion of slot numbers (slot_number) can carry.
inline constexpr std::int64_t max_numbered_slots = std::int64_t{1} << 53;

/// Slot k numbered first + k + 1.
template <class View>
struct NumberSlotFunctor {
  View v;
  std::int64_t first;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    v(k).n = static_cast<double>(first + k + 1);
  }
};

/// v(k) = first + k + 1: source slots numbered from 1 (0 marks padding).
template <class ExecutionSpace, class View>
void number_slots(const ExecutionSpace& exec, const View& v, std::int64_t first) {
  Kokkos::parallel_for(
      "kobalt::value_map::number", range_policy<ExecutionSpace>(exec, 0, v.extent(0)),
      NumberSlotFunctor<View>{v, first});
}

/// map(s) = the slot number carried to slot s.
template <class Numbers, class Map>
struct ReadSlotNumberFunctor {
  using M = typename Map::non_const_value_type;
  Map map;
  Numbers numbers;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s) const {
    map(s) = static_cast<M>(numbers(s).n);
  }
};

/// map(s) = the source slot number a converted copy carried to its slot s
/// (0 for padding).
template <class ExecutionSpace, class Numbers, class Map>
void read_slot_numbers(const ExecutionSpace& exec, const Numbers& numbers, const Map& map) {
  Kokkos::parallel_for(
      "kobalt::value_map::read", range_policy<ExecutionSpace>(exec, 0, map.extent(0)),
      ReadSlotNumberFunctor<Numbers, Map>{map, numbers});
}

/// target(s) = the source value map(s) names (slots 1..n0 in s0, the rest in
/// s1), conjugated when `conj`; 0 where map(s) is 0 (padding). Called per
/// slot (flat) or per row of a column-major target (`rows` > 0: slots i,
/// rows + i, ...). A named functor: one type however many units include it.
template <class Map, class Target, class Source>
struct GatherSlots {
  Map map;
  Target target;
  Source s0, s1;
  std::int64_t n0, rows, columns;
  bool conj;
  KOKKOS_INLINE_FUNCTION void slot(std::int64_t s) const {
    using V = typename Target::non_const_value_type;
    const auto m = static_cast<std::int64_t>(map(s));
    V v(0);
    if (m > 0) v = m <= n0 ? s0(m - 1) : s1(m - 1 - n0);
    target(s) = conj ? conjugate(v) : v;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (rows <= 0) {
      slot(i);
      return;
    }
    for (std::int64_t k = 0; k < columns; ++k) slot(k * rows + i);
  }
};

/// The tiles of a column-major copy (ELL, Hybrid's ELL part): `rows` rows
/// each, and for tile t the first source slot its slots name and how many
/// source slots reach to its last (0: padding only). A tile whose source
/// run fits `capacity` values is staged in team scratch and gathered from
/// there: one coalesced read of the run, then the column-major writes.
template <class Device>
struct CopyTiles {
  Kokkos::View<std::int64_t*, Device> first, count;
  std::int64_t rows = 0;      ///< rows per tile; 0: no tiles (rows walked as they are)
  std::int64_t capacity = 0;  ///< values a tile stages at most
};

/// Rows per tile: 256 or 128, the most whose `columns` values per row fit
/// `bytes` of team scratch; 0 when 128 rows do not. Smaller tiles left the
/// teams too few threads to keep memory busy: ELL refreshes of 100-wide rows
/// ran slower in 32-row tiles than walking the rows (docs/sources.md).
inline std::int64_t tile_rows_for(std::int64_t columns, std::size_t value_bytes,
                                  std::size_t bytes) {
  for (std::int64_t r = 256; r >= 128; r /= 2)
    if (static_cast<std::size_t>(r * columns) * value_bytes <= bytes) return r;
  return 0;
}

/// Row i's least and greatest source slot of the column-major `map` (0 for
/// both when it names none).
template <class Map, class Bounds>
struct RowSlotBoundsFunctor {
  std::int64_t columns;
  Map map;
  std::int64_t rows;
  Bounds lo, hi;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::int64_t l = 0, h = 0;  // 0: no source slot (slot numbers start at 1)
    for (std::int64_t k = 0; k < columns; ++k) {
      const auto m = static_cast<std::int64_t>(map(k * rows + i));
      if (m <= 0) continue;
      if (l == 0 || m < l) l = m;
      if (m > h) h = m;
    }
    lo(i) = l;
    hi(i) = h;
  }
};

/// Tile `tile`'s first source slot and how many reach to its last, from its
/// rows' bounds.
template <class Bounds, class Device>
struct TileRunFunctor {
  std::int64_t tile_rows;
  std::int64_t rows;
  Bounds lo, hi;
  CopyTiles<Device> t;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t tile) const {
    std::int64_t l = 0, h = 0;
    const std::int64_t end = (tile + 1) * tile_rows < rows ? (tile + 1) * tile_rows : rows;
    for (std::int64_t i = tile * tile_rows; i < end; ++i) {
      if (lo(i) == 0) continue;
      if (l == 0 || lo(i) < l) l = lo(i);
      if (hi(i) > h) h = hi(i);
    }
    t.first(tile) = l == 0 ? 0 : l - 1;
    t.count(tile) = l == 0 ? 0 : h - l + 1;
  }
};

/// For each tile of `tile_rows` rows of the column-major `map` (`rows` rows,
/// `columns` columns): the least source slot it names and how many reach to
/// its greatest. Two flat passes, a row per thread and then a tile per
/// thread over its rows' bounds (a tile per thread over its slots left a
/// small matrix's few threads walking thousands of slots each).
template <class ExecutionSpace, class Map, class Device>
void find_tile_runs(const ExecutionSpace& exec, const Map& map, std::int64_t rows,
                    std::int64_t columns, std::int64_t tile_rows, const CopyTiles<Device>& t) {
  Kokkos::View<std::int64_t*, Device> lo(compat::uninitialized(exec, "kobalt::value_map::row_lo"),
                                         rows),
      hi(compat::uninitialized(exec, "kobalt::value_map::row_hi"), rows);
  Kokkos::parallel_for(
      "kobalt::value_map::row_bounds", range_policy<ExecutionSpace>(exec, 0, rows),
      RowSlotBoundsFunctor<Map, Kokkos::View<std::int64_t*, Device>>{columns, map, rows, lo, hi});
  Kokkos::parallel_for(
      "kobalt::value_map::tiles", range_policy<ExecutionSpace>(exec, 0, t.first.extent(0)),
      TileRunFunctor<Kokkos::View<std::int64_t*, Device>, Device>{tile_rows, rows, lo, hi, t});
}

/// GatherSlots of a column-major copy a team per tile: where the tile's
/// source run fits its scratch, the team first reads the run in one
/// coalesced pass and then gathers from scratch; otherwise from the source.
template <class ExecutionSpace, class Map, class Target, class Source, class Device>
struct GatherTiles {
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using value = typename Target::non_const_value_type;
  Map map;
  Target target;
  Source source;
  CopyTiles<Device> tiles;
  std::int64_t rows, columns;
  bool conj;
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t t = team.league_rank();
    const std::int64_t r0 = t * tiles.rows;
    const std::int64_t r1 = r0 + tiles.rows < rows ? r0 + tiles.rows : rows;
    const std::int64_t first = tiles.first(t), count = tiles.count(t);
    value* staged = static_cast<value*>(
        team.team_scratch(0).get_shmem(static_cast<std::size_t>(tiles.capacity) * sizeof(value)));
    const bool fits = count <= tiles.capacity;
    if (fits)
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count),
                           [&](const std::int64_t i) { staged[i] = source(first + i); });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r0, r1), [&](const std::int64_t i) {
      for (std::int64_t k = 0; k < columns; ++k) {
        const std::int64_t s = k * rows + i;
        const auto m = static_cast<std::int64_t>(map(s));
        value v(0);
        if (m > 0) v = fits ? staged[m - 1 - first] : source(m - 1);
        target(s) = conj ? conjugate(v) : v;
      }
    });
  }
};

/// GatherSlots over every slot of `target`, in the copy's order: the writes
/// stream and the reads gather. A column-major target is walked a thread
/// per row, as ELL's kernel reads it: each warp writes one column's run and
/// reads its rows' next source slots from the lines the previous column
/// brought in (flat, every column read the whole source again).
template <class ExecutionSpace, class Map, class Target, class Source>
void gather_values(const ExecutionSpace& exec, const Map& map, const Target& target,
                   const Source& s0, const Source& s1, std::int64_t n0, bool conj,
                   std::int64_t rows) {
  const std::int64_t slots = static_cast<std::int64_t>(map.extent(0));
  if (rows <= 0 || slots % rows != 0) rows = 0;
  const std::int64_t columns = rows > 0 ? slots / rows : 1;
  Kokkos::parallel_for("kobalt::update_values",
                       range_policy<ExecutionSpace>(exec, 0, rows > 0 ? rows : slots),
                       GatherSlots<Map, Target, Source>{map, target, s0, s1, n0, rows, columns,
                                                        conj});
}

}  // namespace detail

/// Where each slot of a converted copy takes its value from: one
/// MapIndex-typed source slot number per copy slot (0: padding; the source's
/// value arrays numbered in detail::value_arrays order), and the copy's own
/// value arrays. gather() refreshes the copy from new source values in the
/// copy's order: its writes stream, and a column-major copy is walked so
/// that its reads do too (detail::GatherTiles).
template <class Value, class MapIndex, class Device>
class ValueMap {
  static_assert(std::is_integral_v<MapIndex>, "kobalt::ValueMap: slot numbers are integers");

 public:
  using source_view = Kokkos::View<const Value*, Device>;  ///< a source value array

  ValueMap() = default;
  /// True for a map of nothing (no copy made).
  bool empty() const { return targets_.empty(); }
  /// Device bytes of the target slots.
  std::uint64_t bytes() const {
    std::uint64_t b = 0;
    for (const auto& f : from_) b += f.extent(0) * sizeof(MapIndex);
    for (const auto& t : tiles_) b += 2 * t.first.extent(0) * sizeof(std::int64_t);
    return b;
  }
  /// Value slots the copy holds (padding included).
  std::int64_t slots() const {
    std::int64_t n = 0;
    for (const auto& t : targets_) n += static_cast<std::int64_t>(t.extent(0));
    return n;
  }

  /// Writes the source's current values into the copy, on `exec` (one pass
  /// over each source value array). `source` must have the extents the map
  /// was made for.
  template <class ExecutionSpace, std::size_t N>
  void gather(const ExecutionSpace& exec, const std::array<source_view, N>& source) const {
    static_assert(N == 1 || N == 2, "kobalt::ValueMap: formats hold one or two value arrays");
    bool same = source_extents_.size() == N;
    for (std::size_t i = 0; same && i < N; ++i) same = source[i].extent(0) == source_extents_[i];
    if (!same)
      throw dimension_mismatch("kobalt::update_values: the source holds other value arrays than "
                               "the ones the copy was made from");
    const auto n0 = static_cast<std::int64_t>(source[0].extent(0));
    for (std::size_t j = 0; j < from_.size(); ++j) {
      if (tiles_[j].rows > 0)
        gather_tiles(exec, j, source[0]);
      else
        detail::gather_values(exec, from_[j], targets_[j], source[0], source[N - 1], n0,
                              conjugate_, column_rows_[j]);
    }
  }

  /// A copy of `a` made by convert(exec, m), where m is `a` with slot
  /// numbers for values, and the map that refreshes it: the copy's values
  /// are written from a's through the map, so the map follows the
  /// conversion as written (padding, permutations, parts). `conjugate`:
  /// the copy holds conj(a)'s values. Throws index_overflow when the slots
  /// do not fit MapIndex or a double.
  template <class ExecutionSpace, class Matrix, class Convert>
  static auto convert(const ExecutionSpace& exec, const Matrix& a, const Convert& conversion,
                      bool conjugate = false);

 private:
  std::vector<std::size_t> source_extents_;             ///< what gather() takes
  std::vector<Kokkos::View<MapIndex*, Device>> from_;   ///< per copy value array
  std::vector<Kokkos::View<Value*, Device>> targets_;   ///< the copy's value arrays
  std::vector<std::int64_t> column_rows_;  ///< per copy value array (detail::column_major_rows)
  std::vector<detail::CopyTiles<Device>> tiles_;  ///< per copy value array
  bool conjugate_ = false;

  /// Team scratch a tile may stage: a few teams per GPU multiprocessor.
  static constexpr std::size_t tile_bytes = 32768;

  /// Cuts copy value array j into tiles where it is column-major and the
  /// source is one value array (detail::CopyTiles).
  template <class ExecutionSpace>
  void make_tiles(const ExecutionSpace& exec, std::size_t j, std::size_t source_arrays) {
    const std::int64_t rows = column_rows_[j];
    const std::int64_t slots = static_cast<std::int64_t>(from_[j].extent(0));
    if (source_arrays != 1 || rows <= 0 || slots % rows != 0) return;
    using policy = Kokkos::TeamPolicy<ExecutionSpace>;
    const std::size_t most = static_cast<std::size_t>(policy::scratch_size_max(0));
    const std::int64_t columns = slots / rows;
    const std::int64_t tile_rows =
        detail::tile_rows_for(columns, sizeof(Value), tile_bytes < most ? tile_bytes : most);
    if (tile_rows == 0) return;
    detail::CopyTiles<Device>& t = tiles_[j];
    const std::int64_t tiles = (rows + tile_rows - 1) / tile_rows;
    t.first = decltype(t.first)(compat::uninitialized(exec, "kobalt::value_map::tile_first"), tiles);
    t.count = decltype(t.count)(compat::uninitialized(exec, "kobalt::value_map::tile_count"), tiles);
    t.rows = tile_rows;
    t.capacity = tile_rows * columns;
    detail::find_tile_runs(exec, from_[j], rows, columns, tile_rows, t);
  }

  /// The tiled gather of copy value array j from `source`.
  template <class ExecutionSpace>
  void gather_tiles(const ExecutionSpace& exec, std::size_t j, const source_view& source) const {
    const detail::CopyTiles<Device>& t = tiles_[j];
    const std::int64_t rows = column_rows_[j];
    const std::int64_t columns = static_cast<std::int64_t>(from_[j].extent(0)) / rows;
    using functor = detail::GatherTiles<ExecutionSpace, Kokkos::View<MapIndex*, Device>,
                                        Kokkos::View<Value*, Device>, source_view, Device>;
    const functor f{from_[j], targets_[j], source, t, rows, columns, conjugate_};
    // Any team size walks a tile (TeamThreadRange): Kokkos' recommendation
    // for this functor, at most the tile's rows.
    const int league = detail::league_size(static_cast<std::int64_t>(t.first.extent(0)), t.rows,
                                           "rows", "kobalt::update_values");
    const auto scratch = compat::per_team(static_cast<std::size_t>(t.capacity) * sizeof(Value));
    Kokkos::TeamPolicy<ExecutionSpace> probe(exec, league, 1);
    probe.set_scratch_size(0, scratch);
    const int recommended = probe.team_size_recommended(f, Kokkos::ParallelForTag());
    const int team = static_cast<int>(recommended < t.rows ? recommended : t.rows);
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, league, team < 1 ? 1 : team);
    policy.set_scratch_size(0, scratch);
    Kokkos::parallel_for("kobalt::update_values<tiles>", policy, f);
  }
};

/// A converted copy and the map that refreshes its values (ValueMap::convert).
template <class Copy, class Map>
struct MappedCopy {
  Copy matrix;  ///< the copy, with the source's values
  Map map;      ///< where each of its value slots comes from
};

template <class Value, class MapIndex, class Device>
template <class ExecutionSpace, class Matrix, class Convert>
auto ValueMap<Value, MapIndex, Device>::convert(const ExecutionSpace& exec, const Matrix& a,
                                                 const Convert& conversion, bool conjugate) {
  static_assert(std::is_same_v<typename Matrix::value_type, Value> &&
                    std::is_same_v<typename Matrix::device_type, Device>,
                "kobalt::ValueMap: the source has the map's value type and device");
  using D = Device;
  const auto source = detail::value_arrays(a);
  constexpr std::size_t n = std::tuple_size_v<decltype(source)>;
  using number = detail::slot_number;
  std::array<detail::values_of<number, D>, n> numbers;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) total += static_cast<std::int64_t>(source[i].extent(0));
  if (total >= detail::max_numbered_slots)
    throw index_overflow("kobalt::update_values: " + std::to_string(total) +
                         " value slots are more than a double numbers exactly");
  std::int64_t first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    numbers[i] = detail::values_of<number, D>(compat::uninitialized(exec, "kobalt::value_map::slots"),
                                              source[i].extent(0));
    detail::number_slots(exec, numbers[i], first);
    first += static_cast<std::int64_t>(source[i].extent(0));
  }
  const auto numbered = conversion(exec, detail::with_values<number>(exec, a, numbers));
  using numbered_type = std::decay_t<decltype(numbered)>;
  const auto carried = detail::value_arrays(numbered);
  constexpr std::size_t m = std::tuple_size_v<decltype(carried)>;

  ValueMap map;
  map.conjugate_ = conjugate;
  if (static_cast<std::uint64_t>(total) >
      static_cast<std::uint64_t>(std::numeric_limits<MapIndex>::max()))
    throw index_overflow("kobalt::update_values: " + std::to_string(total) +
                         " value slots do not fit the map's index type");
  for (std::size_t i = 0; i < n; ++i) map.source_extents_.push_back(source[i].extent(0));
  const auto rows = detail::column_major_rows(numbered);
  map.column_rows_.assign(rows.begin(), rows.end());
  map.tiles_.resize(m);
  std::array<detail::values_of<Value, D>, m> values;
  for (std::size_t j = 0; j < m; ++j) {
    values[j] = detail::values_of<Value, D>(compat::uninitialized(exec, "kobalt::value_map::copy"),
                                            carried[j].extent(0));
    map.targets_.push_back(values[j]);
    map.from_.emplace_back(compat::uninitialized(exec, "kobalt::value_map"), carried[j].extent(0));
    detail::read_slot_numbers(exec, carried[j], map.from_[j]);
    map.make_tiles(exec, j, n);
  }
  map.gather(exec, source);
  using copy_type = decltype(detail::with_values<Value>(exec, numbered, values));
  static_assert(std::is_same_v<typename numbered_type::index_type, typename Matrix::index_type>);
  MappedCopy<copy_type, ValueMap> r{detail::with_values<Value>(exec, numbered, values),
                                    std::move(map)};
  exec.fence();
  return r;
}

}  // namespace kobalt
