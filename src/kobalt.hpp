// SPDX-License-Identifier: BSD-3-Clause
// Kobalt umbrella header: #include <kobalt/kobalt.hpp>
#pragma once

#include "errors.hpp"
#include "formats/convert_coo.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/host_transfer.hpp"
#include "formats/triplets.hpp"
#include "kernels/reference.hpp"
#include "kernels/spmv.hpp"
