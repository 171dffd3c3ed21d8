// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "errors.hpp"
#include "formats/convert_coo.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/host_transfer.hpp"
#include "formats/matrix_market.hpp"
#include "formats/triplets.hpp"
#include "kernels/reference.hpp"
#include "kernels/spmv.hpp"
