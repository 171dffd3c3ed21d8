// SPDX-License-Identifier: BSD-3-Clause
// Kobalt's distributed product over MPI: #include <kobalt/distributed/distributed.hpp>
// and link Kobalt::distributed. Sits above plan/; kobalt.hpp does not include
// it, so the single-device library never needs MPI.
#pragma once

#include "collective_errors.hpp"
#include "gpu_aware_mpi.hpp"
#include "halo_plan.hpp"
#include "handle.hpp"
#include "matrix.hpp"
#include "mpi_transport.hpp"
#include "partition.hpp"
#include "scatter.hpp"
#include "transport.hpp"
