// SPDX-License-Identifier: BSD-3-Clause
// src/version.hpp, seen through the umbrella header as users see it, against
// the CMake project's VERSION (passed in by unit_tests/CMakeLists.txt).
#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <string>

#ifndef KOBALT_VERSION_MAJOR
#error "kobalt/kobalt.hpp must include kobalt/version.hpp"
#endif

namespace {

TEST(Version, HeaderIsTheProjectVersion) {
  EXPECT_EQ(KOBALT_VERSION_MAJOR, KOBALT_PROJECT_VERSION_MAJOR);
  EXPECT_EQ(KOBALT_VERSION_MINOR, KOBALT_PROJECT_VERSION_MINOR);
  EXPECT_EQ(KOBALT_VERSION_PATCH, KOBALT_PROJECT_VERSION_PATCH);
  EXPECT_EQ(std::string(KOBALT_VERSION_STRING), KOBALT_PROJECT_VERSION);
}

TEST(Version, StringAndNumberAreMadeOfTheParts) {
  EXPECT_EQ(std::string(KOBALT_VERSION_STRING), std::to_string(KOBALT_VERSION_MAJOR) + "." +
                                                     std::to_string(KOBALT_VERSION_MINOR) + "." +
                                                     std::to_string(KOBALT_VERSION_PATCH));
  static_assert(KOBALT_VERSION == KOBALT_VERSION_MAJOR * 10000 + KOBALT_VERSION_MINOR * 100 + KOBALT_VERSION_PATCH,
                "KOBALT_VERSION encodes MAJOR.MINOR.PATCH as MAJOR * 10000 + MINOR * 100 + PATCH");
  static_assert(KOBALT_VERSION_MINOR < 100 && KOBALT_VERSION_PATCH < 100, "the encoding holds two digits each");
}

}  // namespace
