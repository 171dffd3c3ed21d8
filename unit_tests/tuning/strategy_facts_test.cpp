// SPDX-License-Identifier: BSD-3-Clause
// The facts every strategy tag declares (tuning/strategy.hpp): each
// alternative of each format's variant has a name and says whether it adds
// in a fixed order, and exactly the kernels with atomics on y say false.
// There is no default: a tag without fixed_order does not compile where a
// variant lists it (static_assert in tuning::declares_facts, "a strategy
// tag declares static constexpr bool fixed_order"); the trait below is the
// check that assert reads.
#include <kobalt/tuning/reproducible.hpp>
#include <kobalt/tuning/strategy.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>
#include <vector>

namespace kobalt::test {
namespace {

/// A tag that forgot its facts: the traits see them missing.
struct tag_without_facts {};
static_assert(!tuning::declares_fixed_order<tag_without_facts>);
static_assert(!tuning::declares_name<tag_without_facts>);
static_assert(tuning::declares_fixed_order<coo::segmented>);

struct Fact {
  std::string name;
  bool fixed_order;
};

/// "format::name" and fixed_order of every alternative of a strategy variant.
template <class... S>
std::vector<Fact> facts(const char* format, const std::variant<S...>*) {
  return {Fact{std::string(format) + "::" + S::name, tuning::fixed_order(S{})}...};
}

template <class Strategy>
std::vector<Fact> facts_of(const char* format) {
  return facts(format, static_cast<const Strategy*>(nullptr));
}

TEST(StrategyFacts, OnlyTheKernelsWithAtomicsOnYAreNotFixedOrder) {
  const std::set<std::string> atomic = {"coo::segmented", "hybrid::ell_then_coo",
                                        "aligned_coo::seg_then_flat"};
  std::vector<Fact> all;
  for (const auto& f :
       {facts_of<csr::strategy>("csr"), facts_of<coo::strategy>("coo"),
        facts_of<ell::strategy>("ell"), facts_of<sellp::strategy>("sellp"),
        facts_of<hybrid::strategy>("hybrid"), facts_of<csrk::strategy>("csrk"),
        facts_of<aligned_coo::strategy>("aligned_coo")})
    all.insert(all.end(), f.begin(), f.end());
  std::set<std::string> seen, seen_atomic;
  for (const auto& f : all) {
    EXPECT_TRUE(seen.insert(f.name).second) << f.name << " declared twice";
    EXPECT_EQ(f.fixed_order, atomic.count(f.name) == 0) << f.name;
    if (!f.fixed_order) seen_atomic.insert(f.name);
  }
  EXPECT_EQ(seen_atomic, atomic) << "every kernel known to add with atomics is listed";
}

TEST(StrategyFacts, NamesAndTheReproducibleChoiceComeFromTheTags) {
  EXPECT_STREQ(csr::name(csr::merge_path{}), "merge_path");
  EXPECT_STREQ(name(hybrid::ell_then_load_balance{}), "ell_then_load_balance");
  EXPECT_EQ(strategy_name(coo::strategy{coo::load_balance{}}), "load_balance");
  // The first alternative that adds in a fixed order, skipping atomic defaults.
  EXPECT_TRUE(std::holds_alternative<coo::load_balance>(
      tuning::reproducible_strategy<coo::strategy>()));
  EXPECT_TRUE(std::holds_alternative<hybrid::ell_then_load_balance>(
      tuning::reproducible_strategy<hybrid::strategy>()));
  EXPECT_TRUE(std::holds_alternative<aligned_coo::flat_then_seg>(
      tuning::reproducible_strategy<aligned_coo::strategy>()));
  EXPECT_TRUE(std::holds_alternative<csr::automatic>(
      tuning::reproducible_strategy<csr::strategy>()));
  EXPECT_TRUE(std::holds_alternative<ell::automatic>(
      tuning::reproducible_strategy<ell::strategy>()));
}

}  // namespace
}  // namespace kobalt::test
