// SPDX-License-Identifier: BSD-3-Clause
// What kobalt-tune trains on: its default training set, and the launch keys
// it sweeps with their candidate values (kobalt_tune.cpp times them,
// tune/fit_sweep.hpp fits them).
#pragma once

#include <kobalt/tuning/profile.hpp>

#include <string>
#include <vector>

namespace kobalt::tune {

/// The training set when no input is given: the suite's generators at a
/// size that fits every device (0.6e6-1e7 nonzeros), regular and irregular,
/// and five small regular ones (5e4-4.4e5) where SELL-P may win on hosts
/// (the automatic handle's rule 0), and three irregular ones of 3.9e5-4e5
/// nonzeros (rmat:15,12, rmat:16,6, zipf:40000,10): the evaluation set's
/// power-law graphs are mostly 1e5-4.2e5 nonzeros, where the set had
/// rmat:14,16 alone, so auto_hybrid_min_nnz was fitted without them
/// (issue 16, 2026-11-26). Disjoint from the evaluation set of
/// perf_tests/results (the shared matrices and the suite's large sizes):
/// lap3d:90, not lap3d:100, which is the shared laplacian7pt_100 (in the
/// set until 721cdb5; h200.json was refitted without it in session 25,
/// h200_host_openmp16.json in session 26). Four regular ones of 4e3-2.4e4
/// nonzeros (lap2d:30, lap3d:12, uniform:3000,6, lap2d:70): with lap2d:100
/// the smallest, a GPU where ELL won on every regular matrix could place
/// auto_min_convert_nnz no lower than lap2d:100 (docs/sources.md).
inline const std::vector<std::string> default_training = {
    "lap3d:90",    "stencil27:60",       "fem:5000,16,2",           "uniform:1000000,8",
    "tall:2000000,200000,6", "rmat:18,16", "zipf:1000000,10", "circuit:2000000,20,50000",
    "arrow:200000", "lap2d:300",         "uniform:100000,8",        "rmat:14,16",
    "lap2d:100",   "lap3d:30",           "uniform:20000,8",         "lap3d:40",
    "uniform:60000,6", "rmat:15,12", "rmat:16,6", "zipf:40000,10",
    "lap2d:30",    "lap3d:12",           "uniform:3000,6",          "lap2d:70"};

/// A field of DeviceProfile that a sweep sets.
using ProfileField = int tuning::DeviceProfile::*;
/// A launch key kobalt-tune sweeps: its candidate values, and which
/// training matrices and format time it.
struct KeySweep {
  const char* key;          ///< the profile key
  ProfileField field;       ///< its field
  std::vector<int> values;  ///< candidates
  const char* on;           ///< the matrices it is timed on, for the report
};
/// merge_path's items per lane, on the matrices csr::automatic runs with
/// merge_path (the H200's 8 was chosen from 4 / 8 / 16 by hand, profile.hpp).
inline const KeySweep merge_path_items_sweep = {
    "merge_path_items", &tuning::DeviceProfile::merge_path_items, {4, 6, 8, 12, 16},
    "csr::automatic runs merge_path"};
/// The warp-chunk kernels' omega (000 §3.2.2; 0 = its rule by nonzeros), on
/// both of them (CSR load_balance, Hybrid's COO part) on the irregular
/// matrices, where the automatic handle runs them.
inline const KeySweep oversubscription_sweep = {
    "oversubscription", &tuning::DeviceProfile::oversubscription, {0, 2, 4, 8, 16, 32},
    "irregular (CSR load_balance and Hybrid's COO part)"};
/// Threads per team of the row and warp-chunk kernels (GPUs; 128 was the
/// best plain-Kokkos row kernel on the H200, profile.hpp), on CSR
/// (csr::automatic, the automatic handle's format for most matrices) of
/// every training matrix.
inline const KeySweep team_threads_sweep = {
    "team_threads", &tuning::DeviceProfile::team_threads, {64, 128, 256, 512, 1024},
    "every matrix (CSR, csr::automatic)"};
/// Warps per compute unit in the warp-chunk kernels' warp count (GPUs; 4 =
/// FP32 cores per SM / 32 on Hopper, docs/sources.md), on the warp-chunk
/// kernels, as omega.
inline const KeySweep warps_per_cu_sweep = {
    "warps_per_cu", &tuning::DeviceProfile::warps_per_cu, {1, 2, 4, 8, 16},
    "irregular (CSR load_balance and Hybrid's COO part)"};
/// Rows a host thread walks per league entry (hosts; 256 was a first cut,
/// never measured, profile.hpp), on CSR classical, the host's row kernel
/// (csr::automatic runs merge_path's static partitions there instead).
inline const KeySweep rows_per_team_sweep = {
    "rows_per_team", &tuning::DeviceProfile::rows_per_team, {16, 64, 256, 1024, 4096},
    "every matrix (CSR classical)"};
/// Rule 0's rows per SELL-P slice (t = 1) around the built-in 8
/// (profile.hpp): the host SIMD widths 4, 8, 16 and a warp-wide 32, on the
/// regular matrices that SELL-P pads little with some of them.
inline const KeySweep sellp_slice_sweep = {
    "auto_sellp_slice_size", &tuning::DeviceProfile::auto_sellp_slice_size, {4, 8, 16, 32},
    "SELL-P pads little (rule 0)"};

}  // namespace kobalt::tune
