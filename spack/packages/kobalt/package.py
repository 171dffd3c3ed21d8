# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for Kobalt (Spack 0.21-0.23 package API). From a checkout:
#   spack repo add spack
#   spack develop --path . kobalt@=0.1.0 && spack install kobalt@=0.1.0 +perf_tests ^kokkos+openmp
# (there is no published release archive or repository URL yet: set `url` or
# `git` and checksums here when there is). unit_tests/package/check_spack_package.py
# checks that every variant maps to an option of CMakeLists.txt.

from spack.package import *


class Kobalt(CMakePackage):
    """Header-only C++17 sparse matrix-vector product (SpMV) kernels on Kokkos:
    COO, CSR, ELL, SELL-P, HYB, CSR-k and ALIGNED_COO in Kokkos Views, on every
    Kokkos backend. The backend is the one of the Kokkos it is built against."""

    license("BSD-3-Clause")

    version("0.1.0")

    variant("tests", default=False, description="Build the GoogleTest unit tests")
    variant("perf_tests", default=False, description="Build and install kobalt-bench")
    variant("kokkos-kernels", default=False, description="Kokkos Kernels as a peer in kobalt-bench")
    variant("cusparse", default=False, description="cuSPARSE as a peer in kobalt-bench (CUDA Kokkos)")
    variant("rocsparse", default=False, description="rocSPARSE as a peer in kobalt-bench (HIP Kokkos)")
    variant("mkl", default=False, description="Intel MKL as a peer in kobalt-bench (host Kokkos)")
    variant("zlib", default=True, description="Read and write gzip-compressed Matrix Market files (.mtx.gz)")

    depends_on("cmake@3.16:", type="build")
    depends_on("kokkos@3.4:")
    depends_on("zlib-api", when="+zlib")
    depends_on("googletest", type=("build", "test"), when="+tests")
    depends_on("python", type="test", when="+tests")
    depends_on("kokkos-kernels", when="+kokkos-kernels")
    depends_on("kokkos+cuda", when="+cusparse")
    depends_on("cuda", when="+cusparse")
    depends_on("kokkos+rocm", when="+rocsparse")
    depends_on("rocsparse", when="+rocsparse")
    depends_on("mkl", when="+mkl")

    # The peers are parts of kobalt-bench.
    for peer in ("kokkos-kernels", "cusparse", "rocsparse", "mkl"):
        conflicts(f"+{peer}", when="~perf_tests", msg=f"+{peer} is a peer in kobalt-bench: add +perf_tests")
    conflicts("+mkl", when="^kokkos+cuda", msg="MKL is a CPU peer: it needs a host Kokkos")
    conflicts("+mkl", when="^kokkos+rocm", msg="MKL is a CPU peer: it needs a host Kokkos")

    def cmake_args(self):
        args = [
            self.define_from_variant("KOBALT_ENABLE_TESTS", "tests"),
            self.define_from_variant("KOBALT_ENABLE_PERF_TESTS", "perf_tests"),
            self.define_from_variant("KOBALT_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define_from_variant("KOBALT_ENABLE_CUSPARSE", "cusparse"),
            self.define_from_variant("KOBALT_ENABLE_ROCSPARSE", "rocsparse"),
            self.define_from_variant("KOBALT_ENABLE_MKL", "mkl"),
            self.define_from_variant("KOBALT_ENABLE_ZLIB", "zlib"),
            self.define("KOBALT_INSTALL", True),
        ]
        # A CUDA Kokkos compiles through its nvcc_wrapper, as Kokkos Kernels' recipe does.
        if self.spec.satisfies("^kokkos+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx))
        return args
