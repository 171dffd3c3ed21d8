// SPDX-License-Identifier: BSD-3-Clause
// Kobalt's release version: #include <kobalt/version.hpp>. CMakeLists.txt
// reads these three numbers and stops at configure time if they differ from
// project(VERSION), so the header and the package version cannot drift.
#pragma once

/// \file
/// Kobalt's version as macros, for the preprocessor and for messages; also
/// included by kobalt.hpp.

/// The major version: 0 until the API is stable.
#define KOBALT_VERSION_MAJOR 0
/// The minor version; before 1.0 a new minor version may change the API.
#define KOBALT_VERSION_MINOR 1
/// The patch version: fixes only.
#define KOBALT_VERSION_PATCH 0

/// "MAJOR.MINOR.PATCH"
#define KOBALT_VERSION_STRING "0.1.0"

/// One number for comparisons: MAJOR * 10000 + MINOR * 100 + PATCH
/// (as KOKKOS_VERSION), e.g. `#if KOBALT_VERSION >= 100` for 0.1.0 or newer.
#define KOBALT_VERSION (KOBALT_VERSION_MAJOR * 10000 + KOBALT_VERSION_MINOR * 100 + KOBALT_VERSION_PATCH)
