// SPDX-License-Identifier: BSD-3-Clause
// Kobalt umbrella header: #include <kobalt/kobalt.hpp>
// Layers, each including only those below it: arch <- formats (io beside
// them) <- tuning <- kernels <- plan <- this header.
#pragma once

#include "errors.hpp"
#include "formats/aligned_coo.hpp"
#include "formats/convert_aligned_coo.hpp"
#include "formats/convert_coo.hpp"
#include "formats/convert_csrk.hpp"
#include "formats/convert_ell.hpp"
#include "formats/convert_hybrid.hpp"
#include "formats/convert_sellp.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/csrk.hpp"
#include "formats/ell.hpp"
#include "formats/host_transfer.hpp"
#include "formats/hybrid.hpp"
#include "formats/row_lengths.hpp"
#include "formats/sellp.hpp"
#include "formats/triplets.hpp"
#include "io/matrix_market.hpp"
#include "kernels/reference.hpp"
#include "plan/convert.hpp"
#include "plan/dispatch.hpp"
#include "plan/handle.hpp"
#include "plan/spmv.hpp"
#include "tuning/profile.hpp"
#include "tuning/reproducible.hpp"
#include "tuning/select.hpp"
#include "tuning/stats.hpp"
#include "tuning/strategy.hpp"
