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

/// v(k) = first + k + 1: source slots numbered from 1 (0 marks padding).
template <class ExecutionSpace, class View>
void number_slots(const ExecutionSpace& exec, const View& v, std::int64_t first) {
  Kokkos::parallel_for(
      "kobalt::value_map::number", range_policy<ExecutionSpace>(exec, 0, v.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t k) { v(k).n = static_cast<double>(first + k + 1); });
}

/// map(s) = the slot number a converted copy carried to its slot s.
template <class ExecutionSpace, class Numbers, class Map>
void read_slot_numbers(const ExecutionSpace& exec, const Numbers& numbers, const Map& map) {
  using M = typename Map::non_const_value_type;
  Kokkos::parallel_for(
      "kobalt::value_map::read", range_policy<ExecutionSpace>(exec, 0, map.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t s) { map(s) = static_cast<M>(numbers(s).n); });
}

/// target(s) = the source value map(s) names (slots 1..n0 in s0, the rest in
/// s1), conjugated when `conj`; 0 where map(s) is 0 (padding).
template <class ExecutionSpace, class Map, class Target, class Source>
void gather_values(const ExecutionSpace& exec, const Map& map, const Target& target,
                   const Source& s0, const Source& s1, std::int64_t n0, bool conj) {
  using V = typename Target::non_const_value_type;
  Kokkos::parallel_for(
      "kobalt::update_values", range_policy<ExecutionSpace>(exec, 0, map.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t s) {
        const auto m = static_cast<std::int64_t>(map(s));
        V v(0);
        if (m > 0) v = m <= n0 ? s0(m - 1) : s1(m - 1 - n0);
        target(s) = conj ? conjugate(v) : v;
      });
}
}  // namespace detail

/// Where each value of a converted copy comes from in its source's value
/// arrays (detail::value_arrays order), and the copy's own value arrays it
/// writes: gather() refreshes the copy from new source values. Holds
/// MapIndex-typed slot numbers, one per value slot of the copy.
template <class Value, class MapIndex, class Device>
class ValueMap {
 public:
  using source_view = Kokkos::View<const Value*, Device>;  ///< a source value array

  ValueMap() = default;
  /// True for a map of nothing (no copy made).
  bool empty() const { return parts_.empty(); }
  /// Device bytes of the slot numbers.
  std::uint64_t bytes() const {
    std::uint64_t b = 0;
    for (const auto& p : parts_) b += p.source.extent(0) * sizeof(MapIndex);
    return b;
  }
  /// Value slots the copy holds (padding included).
  std::int64_t slots() const {
    std::int64_t n = 0;
    for (const auto& p : parts_) n += static_cast<std::int64_t>(p.source.extent(0));
    return n;
  }

  /// Writes the source's current values into the copy, on `exec` (one
  /// gather per value array of the copy). `source` must have the extents
  /// the map was made for.
  template <class ExecutionSpace, std::size_t N>
  void gather(const ExecutionSpace& exec, const std::array<source_view, N>& source) const {
    static_assert(N == 1 || N == 2, "kobalt::ValueMap: formats hold one or two value arrays");
    if (static_cast<std::int64_t>(source[0].extent(0)) != first_slots_ ||
        (N == 2 && static_cast<std::int64_t>(source[N - 1].extent(0)) != second_slots_))
      throw dimension_mismatch("kobalt::update_values: the source holds other value arrays than "
                               "the ones the copy was made from");
    for (const auto& p : parts_)
      detail::gather_values(exec, p.source, p.target, source[0], source[N - 1], first_slots_,
                            conjugate_);
  }

  /// A copy of `a` made by convert(exec, m), where m is `a` with slot
  /// numbers for values, and the map that refreshes it: the copy's values
  /// are gathered from a's through the map, so the map follows the
  /// conversion as written (padding, permutations, parts). `conjugate`:
  /// the copy holds conj(a)'s values. Throws index_overflow when a's slots
  /// do not fit MapIndex or a double.
  template <class ExecutionSpace, class Matrix, class Convert>
  static auto convert(const ExecutionSpace& exec, const Matrix& a, const Convert& conversion,
                      bool conjugate = false);

 private:
  struct Part {
    Kokkos::View<MapIndex*, Device> source;
    Kokkos::View<Value*, Device> target;
  };
  std::vector<Part> parts_;
  std::int64_t first_slots_ = 0, second_slots_ = 0;
  bool conjugate_ = false;
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
  using number = detail::slot_number<Value>;
  std::array<detail::values_of<number, D>, n> numbers;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) total += static_cast<std::int64_t>(source[i].extent(0));
  if (total >= detail::max_numbered_slots ||
      static_cast<std::uint64_t>(total) >
          static_cast<std::uint64_t>(std::numeric_limits<MapIndex>::max()))
    throw index_overflow("kobalt::update_values: " + std::to_string(total) +
                         " value slots do not fit the map's index type");
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
  map.first_slots_ = static_cast<std::int64_t>(source[0].extent(0));
  map.second_slots_ = static_cast<std::int64_t>(source[n - 1].extent(0));
  map.conjugate_ = conjugate;
  std::array<detail::values_of<Value, D>, m> values;
  for (std::size_t j = 0; j < m; ++j) {
    const auto slots = carried[j].extent(0);
    Part p{Kokkos::View<MapIndex*, D>(compat::uninitialized(exec, "kobalt::value_map"), slots),
           detail::values_of<Value, D>(compat::uninitialized(exec, "kobalt::value_map::copy"),
                                       slots)};
    detail::read_slot_numbers(exec, carried[j], p.source);
    values[j] = p.target;
    map.parts_.push_back(p);
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
