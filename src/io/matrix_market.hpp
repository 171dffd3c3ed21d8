// SPDX-License-Identifier: BSD-3-Clause
// Matrix Market I/O (.mtx and .mtx.gz): read_matrix_market<Value, Index>(path)
// gives assembled host Triplets, write_matrix_market(path, triplets) writes
// them back exactly. See matrix_market_read.hpp for the accepted grammar and
// the errors, matrix_market_write.hpp for the output form.
#pragma once

#include "matrix_market_read.hpp"
#include "matrix_market_write.hpp"
