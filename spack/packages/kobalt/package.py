# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for Kobalt (Spack 0.22 and newer, 1.x included), written in
# the conventions of the Kokkos-based packages of spack-packages
# (kokkos-kernels, kokkos-fft, arborx). From a checkout:
#   spack repo add spack
#   spack develop --path . kobalt@=0.1.0 && spack install kobalt@=0.1.0 +perf_tests +openmp
#   spack install kobalt@=0.1.0 +cuda cuda_arch=90      # Kokkos +cuda cuda_arch=90 comes with it
#   spack install kobalt@=0.1.0 +rocm amdgpu_target=gfx90a
# (there is no published release archive or repository URL yet: set `url` or
# `git` and checksums here when there is). unit_tests/package/check_spack_package.py
# checks that every variant maps to an option of CMakeLists.txt or to Kokkos,
# and the conventions below.

from spack.package import *

try:  # Spack 1.0 and newer keep the build systems in the builtin repository.
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # Spack 0.22-0.23 export them from spack.package.
    pass


class Kobalt(CMakePackage, CudaPackage, ROCmPackage):
    """Header-only C++17 sparse matrix-vector product (SpMV) kernels on Kokkos:
    COO, CSR, ELL, SELL-P, HYB, CSR-k and ALIGNED_COO in Kokkos Views, on every
    Kokkos backend. The backend is the one of the Kokkos it is built against."""

    license("BSD-3-Clause")

    version("0.1.0")

    variant("tests", default=False, description="Build the GoogleTest unit tests")
    variant("perf_tests", default=False, description="Build and install kobalt-bench")
    variant("kokkos-kernels", default=False, description="Kokkos Kernels as a peer in kobalt-bench")
    variant("cusparse", default=False, description="cuSPARSE as a peer in kobalt-bench (needs +cuda)")
    variant("rocsparse", default=False, description="rocSPARSE as a peer in kobalt-bench (needs +rocm)")
    variant("mkl", default=False, description="Intel MKL as a peer in kobalt-bench (host backends)")
    variant("zlib", default=True, description="Read and write gzip-compressed Matrix Market files (.mtx.gz)")
    variant("mpi", default=False, description="The distributed product over MPI (Kobalt::distributed)")
    variant("nccl", default=False, description="NCCL as the distributed product's transport (needs +mpi +cuda)")

    # Kobalt has no backend of its own: it runs on the backends of the Kokkos
    # it is built against. The host backends are Kokkos' variants, passed
    # down; cuda/cuda_arch and rocm/amdgpu_target come from CudaPackage and
    # ROCmPackage and are passed down the same way.
    kokkos_host_backends = {
        "serial": (True, "Kokkos' Serial backend"),
        "openmp": (False, "Kokkos' OpenMP backend"),
        "threads": (False, "Kokkos' C++ threads backend"),
    }
    for backend, (backend_default, backend_text) in kokkos_host_backends.items():
        variant(backend, default=backend_default, description=backend_text)
        depends_on(f"kokkos+{backend}", when=f"+{backend}")

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    # The range cmake/KobaltKokkos.cmake accepts (KOBALT_KOKKOS_MIN_VERSION, _MAX_MAJOR).
    depends_on("kokkos@3.4:5")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    for gfx in ROCmPackage.amdgpu_targets:
        depends_on(f"kokkos+rocm amdgpu_target={gfx}", when=f"+rocm amdgpu_target={gfx}")
    # Kokkos 3.x and 4.x take lambdas in CUDA kernels only with this variant.
    depends_on("kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    conflicts("+cuda", when="cuda_arch=none", msg="+cuda needs the cuda_arch Kokkos is built for")
    conflicts("+rocm", when="amdgpu_target=none", msg="+rocm needs the amdgpu_target Kokkos is built for")
    conflicts("+cuda", when="+rocm", msg="Kokkos has one device backend: CUDA or ROCm")

    depends_on("zlib-api", when="+zlib")
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    depends_on("googletest", type=("build", "test"), when="+tests")
    depends_on("python", type="test", when="+tests")
    depends_on("kokkos-kernels", when="+kokkos-kernels")
    depends_on("rocsparse", when="+rocsparse")
    depends_on("mkl", when="+mkl")

    # The peers are parts of kobalt-bench, each on its own backend.
    for peer in ("kokkos-kernels", "cusparse", "rocsparse", "mkl"):
        conflicts(f"+{peer}", when="~perf_tests", msg=f"+{peer} is a peer in kobalt-bench: add +perf_tests")
    requires("+cuda", when="+cusparse", msg="cuSPARSE is a CUDA peer: add +cuda cuda_arch=...")
    requires("+rocm", when="+rocsparse", msg="rocSPARSE is a ROCm peer: add +rocm amdgpu_target=...")
    requires("+mpi +cuda", when="+nccl", msg="NCCL carries the distributed product's halos on CUDA: add +mpi +cuda")
    conflicts("+mkl", when="+cuda", msg="MKL is a CPU peer: it needs a host Kokkos")
    conflicts("+mkl", when="+rocm", msg="MKL is a CPU peer: it needs a host Kokkos")

    def cmake_args(self):
        args = [
            self.define_from_variant("KOBALT_ENABLE_TESTS", "tests"),
            self.define_from_variant("KOBALT_ENABLE_PERF_TESTS", "perf_tests"),
            self.define_from_variant("KOBALT_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define_from_variant("KOBALT_ENABLE_CUSPARSE", "cusparse"),
            self.define_from_variant("KOBALT_ENABLE_ROCSPARSE", "rocsparse"),
            self.define_from_variant("KOBALT_ENABLE_MKL", "mkl"),
            self.define_from_variant("KOBALT_ENABLE_ZLIB", "zlib"),
            self.define_from_variant("KOBALT_ENABLE_MPI", "mpi"),
            self.define_from_variant("KOBALT_ENABLE_NCCL", "nccl"),
            self.define("KOBALT_INSTALL", True),
            self.define("Kokkos_ROOT", self.spec["kokkos"].prefix),
        ]
        # A HIP Kokkos compiles with hipcc; any other with the compiler Kokkos
        # names (its nvcc_wrapper for CUDA), as Kokkos Kernels' recipe does.
        if self.spec.satisfies("+rocm"):
            args.append(self.define("CMAKE_CXX_COMPILER", self.spec["hip"].hipcc))
        else:
            args.append(self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx))
        return args
