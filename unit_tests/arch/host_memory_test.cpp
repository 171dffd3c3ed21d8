// SPDX-License-Identifier: BSD-3-Clause
// What the host may still allocate (arch/host_memory.hpp): the process's
// ulimits against its status file, and the cgroup v2 and v1 memory limits
// of its cgroup and the cgroups above it, read from fixture folders laid
// out as /proc/self and /sys/fs/cgroup are; then the whole chain under a
// real address-space limit of this process.
#include <gtest/gtest.h>

#include "fixtures/scratch_folder.hpp"

#include <kobalt/arch/arch.hpp>
#include <kobalt/formats/storage_limit.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace kobalt::test {
namespace {

using arch::detail::no_memory_limit;

/// Fixture files laid out as /proc/self (in proc/) and the mount points.
class Fixture : public ScratchFolder {
 protected:
  std::string proc() const { return at("proc"); }
  std::string root() const { return folder().string(); }
};

TEST(HostMemory, HeadroomIsLimitLessUse) {
  EXPECT_EQ(arch::detail::headroom(1000, 300), 700u);
  EXPECT_EQ(arch::detail::headroom(1000, 1000), 0u);
  EXPECT_EQ(arch::detail::headroom(1000, 5000), 0u);
  EXPECT_EQ(arch::detail::headroom(no_memory_limit, 5000), no_memory_limit);
}

using HostRlimit = Fixture;

TEST_F(HostRlimit, AddressSpaceAgainstVmSizeDataAgainstVmData) {
  write("proc/status", "Name:\tkobalt\nVmPeak:\t 9999 kB\nVmSize:\t    1000 kB\nVmData:\t 400 kB\n");
  const std::string status = proc() + "/status";
  const auto inf = static_cast<std::uint64_t>(RLIM_INFINITY);
  EXPECT_EQ(arch::detail::rlimit_headroom(2 << 20, inf, status), (2u << 20) - 1000u * 1024);
  EXPECT_EQ(arch::detail::rlimit_headroom(inf, 1 << 20, status), (1u << 20) - 400u * 1024);
  // Both set: the tighter one.
  EXPECT_EQ(arch::detail::rlimit_headroom(2 << 20, 1 << 20, status), (1u << 20) - 400u * 1024);
  EXPECT_EQ(arch::detail::rlimit_headroom(inf, inf, status), no_memory_limit);
  // A limit already reached leaves nothing.
  EXPECT_EQ(arch::detail::rlimit_headroom(512 * 1024, inf, status), 0u);
}

using HostCgroup = Fixture;

TEST_F(HostCgroup, V2TheTightestOfTheCgroupAndItsAncestors) {
  write("proc/mountinfo",
        "22 1 0:20 / /proc rw - proc proc rw\n"
        "30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n");
  write("proc/cgroup", "0::/job_7/step_0\n");
  // The job's limit (above the step's own cgroup) decides; its inactive
  // page cache counts as free, as in MemAvailable.
  write("sys/fs/cgroup/job_7/memory.max", "1000000\n");
  write("sys/fs/cgroup/job_7/memory.current", "300000\n");
  write("sys/fs/cgroup/job_7/memory.stat", "anon 150000\nfile 150000\ninactive_file 100000\n");
  write("sys/fs/cgroup/job_7/step_0/memory.max", "max\n");
  write("sys/fs/cgroup/job_7/step_0/memory.current", "250000\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 800000u);
  // A tighter step limit wins.
  write("sys/fs/cgroup/job_7/step_0/memory.max", "400000\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 150000u);
  // Usage at the limit leaves nothing.
  write("sys/fs/cgroup/job_7/step_0/memory.current", "400000\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 0u);
}

TEST_F(HostCgroup, V2UnlimitedAndMissingFilesAreNoLimit) {
  write("proc/mountinfo", "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  write("proc/cgroup", "0::/user.slice\n");
  write("sys/fs/cgroup/user.slice/memory.max", "max\n");
  write("sys/fs/cgroup/user.slice/memory.current", "123456\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), no_memory_limit);
  // No cgroup files at all (no /proc): no limit, not zero.
  EXPECT_EQ(arch::detail::cgroup_headroom(root() + "/nowhere", root()), no_memory_limit);
}

TEST_F(HostCgroup, V2InANamespaceReadsTheMountPoint) {
  // A container's cgroup namespace: the mount's root is the container's
  // cgroup, and /proc/self/cgroup says "/".
  write("proc/mountinfo",
        "40 30 0:26 /kubepods/pod1/c1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
  write("proc/cgroup", "0::/\n");
  write("sys/fs/cgroup/memory.max", "2000000\n");
  write("sys/fs/cgroup/memory.current", "500000\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 1500000u);
}

TEST_F(HostCgroup, V1MemoryControllerBesideAnUnlimitedParent) {
  // A hybrid host: cgroup v1 controllers, v2 mounted without the memory
  // controller. v1 writes "no limit" as a huge page-aligned number.
  write("proc/mountinfo",
        "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
        "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
        "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
        "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
  write("proc/cgroup", "1:cpu:/\n4:memory:/slurm/uid_1/job_2\n0::/\n");
  write("sys/fs/cgroup/memory/slurm/memory.limit_in_bytes", "9223372036854771712\n");
  write("sys/fs/cgroup/memory/slurm/memory.usage_in_bytes", "5000000000\n");
  write("sys/fs/cgroup/memory/slurm/uid_1/job_2/memory.limit_in_bytes", "1073741824\n");
  write("sys/fs/cgroup/memory/slurm/uid_1/job_2/memory.usage_in_bytes", "536870912\n");
  write("sys/fs/cgroup/memory/slurm/uid_1/job_2/memory.stat",
        "cache 1000\ninactive_file 7\ntotal_inactive_file 1048576\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 536870912u + 1048576u);
}

TEST_F(HostCgroup, V1ControllersSharingAHierarchy) {
  write("proc/mountinfo",
        "35 31 0:32 / /sys/fs/cgroup/cpu,memory rw - cgroup cgroup rw,cpu,memory\n");
  write("proc/cgroup", "3:cpu,memory:/batch\n");
  write("sys/fs/cgroup/cpu,memory/batch/memory.limit_in_bytes", "4096\n");
  write("sys/fs/cgroup/cpu,memory/batch/memory.usage_in_bytes", "1024\n");
  EXPECT_EQ(arch::detail::cgroup_headroom(proc(), root()), 3072u);
}

TEST_F(HostCgroup, MemAvailableInKib) {
  write("proc/meminfo", "MemTotal:       24684084 kB\nMemAvailable:   1000 kB\n");
  EXPECT_EQ(arch::detail::meminfo_available(proc() + "/meminfo", 5), 1000u * 1024);
  EXPECT_EQ(arch::detail::meminfo_available(proc() + "/missing", 5), 5u);
}

/// The whole chain: under an address-space limit 64 MiB above what the
/// process maps now, the storage check of a host allocation sees at most
/// that, whatever the node has free.
TEST(HostMemory, StorageCheckSeesTheAddressSpaceLimit) {
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &before), 0);
  const std::uint64_t mapped = arch::detail::status_bytes("/proc/self/status", "VmSize");
  ASSERT_GT(mapped, 0u);
  const std::uint64_t room = std::uint64_t(64) << 20;
  rlimit limited = before;
  // A tighter limit already set leaves even less room.
  if (before.rlim_cur == RLIM_INFINITY || before.rlim_cur > mapped + room)
    limited.rlim_cur = static_cast<rlim_t>(mapped + room);
  ASSERT_EQ(setrlimit(RLIMIT_AS, &limited), 0);
  const std::uint64_t seen = available_bytes<Kokkos::HostSpace>();
  bool refused = false;
  try {
    check_storage<Kokkos::HostSpace>("a 1 GiB host array", std::uint64_t(1) << 30, 0);
  } catch (const format_too_large&) {
    refused = true;
  }
  ASSERT_EQ(setrlimit(RLIMIT_AS, &before), 0);
  // The mapping may shrink by a few pages between the two reads (an OpenMP
  // build unmapped 8 KiB there): 1 MiB of slack, far below the node's free GiBs.
  EXPECT_LE(seen, room + (std::uint64_t(1) << 20));
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace kobalt::test
