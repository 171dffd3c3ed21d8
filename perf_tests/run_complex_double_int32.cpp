// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench for Kokkos::complex<double> values and int32 indices (one type pair per
// file so the instantiations compile in parallel).
#include "bench_run.hpp"

template int kobalt::bench::run<Kokkos::complex<double>, std::int32_t>(const Options&,
                                                                       const Provenance&);
