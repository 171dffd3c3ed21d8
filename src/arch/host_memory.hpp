// SPDX-License-Identifier: BSD-3-Clause
// How much host memory this process may still allocate: the node's
// MemAvailable, and below it the limits a batch job runs under, the
// process's address-space and data limits (ulimit -v, -d) and the memory
// limit of its cgroup (Slurm, Kubernetes, systemd). A check against the
// node alone passes what the job's allocator or the OOM killer then ends.
// Included from host.hpp only; the readers take their roots as parameters
// so that tests can point them at fixture folders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace kobalt::arch::detail {

/// No limit: what a reader returns where nothing is set.
inline constexpr std::uint64_t no_memory_limit = UINT64_MAX;

/// Bytes left under `limit` with `used` taken: 0 once used reaches it.
inline std::uint64_t headroom(std::uint64_t limit, std::uint64_t used) {
  if (limit == no_memory_limit) return no_memory_limit;
  return used >= limit ? 0 : limit - used;
}

/// The unsigned number `text` starts with (after blanks) into `out`; false
/// when it starts with none (cgroup v2's "max" among them).
inline bool read_unsigned(const std::string& text, std::uint64_t& out) {
  const auto start = text.find_first_not_of(" \t");
  if (start == std::string::npos || text[start] < '0' || text[start] > '9') return false;
  out = std::strtoull(text.c_str() + start, nullptr, 10);
  return true;
}

/// The value of "key:" in a /proc/<pid>/status file, in bytes (the file
/// counts kB); 0 when the file or the key is missing.
inline std::uint64_t status_bytes(const std::string& status_path, const std::string& key) {
  std::ifstream in(status_path);
  std::string line;
  const std::string prefix = key + ":";
  while (std::getline(in, line))
    if (line.compare(0, prefix.size(), prefix) == 0) {
      std::uint64_t kib = 0;
      return read_unsigned(line.substr(prefix.size()), kib) ? kib * 1024 : 0;
    }
  return 0;
}

/// Bytes left under an address-space limit `as_limit` (RLIMIT_AS, against
/// VmSize) and a data limit `data_limit` (RLIMIT_DATA, against VmData, which
/// Linux counts over every private writable mapping), read from the status
/// file at `status_path`; no_memory_limit for RLIM_INFINITY.
inline std::uint64_t rlimit_headroom(std::uint64_t as_limit, std::uint64_t data_limit,
                                     const std::string& status_path) {
  const auto unlimited = [](std::uint64_t v) {
    return v == static_cast<std::uint64_t>(RLIM_INFINITY) ? no_memory_limit : v;
  };
  std::uint64_t left = no_memory_limit;
  if (unlimited(as_limit) != no_memory_limit)
    left = std::min(left, headroom(as_limit, status_bytes(status_path, "VmSize")));
  if (unlimited(data_limit) != no_memory_limit)
    left = std::min(left, headroom(data_limit, status_bytes(status_path, "VmData")));
  return left;
}

/// rlimit_headroom of this process's own limits.
inline std::uint64_t process_rlimit_headroom() {
  rlimit as{}, data{};
  const std::uint64_t as_limit =
      getrlimit(RLIMIT_AS, &as) == 0 ? static_cast<std::uint64_t>(as.rlim_cur) : RLIM_INFINITY;
  const std::uint64_t data_limit =
      getrlimit(RLIMIT_DATA, &data) == 0 ? static_cast<std::uint64_t>(data.rlim_cur)
                                         : RLIM_INFINITY;
  return rlimit_headroom(as_limit, data_limit, "/proc/self/status");
}

/// The first line of a file, "" when it cannot be read.
inline std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// The value of `key` in a cgroup memory.stat file (0 when missing).
inline std::uint64_t stat_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return 0;
}

/// One cgroup hierarchy that holds the memory controller: the folder of
/// the process's cgroup and the mount point above which the walk stops.
struct cgroup_folder {
  bool v2 = false;
  std::string folder, mount;
};

/// The memory cgroup folders of the process described by `proc_self`
/// (its `cgroup` and `mountinfo` files), with `fs_root` prefixed to every
/// mount point. A cgroup path outside the mount's root (a cgroup
/// namespace) maps to the mount point itself.
inline std::vector<cgroup_folder> memory_cgroups(const std::string& proc_self,
                                                 const std::string& fs_root) {
  struct mount_of {
    std::string root, point;
  };
  std::vector<mount_of> v2_mounts, v1_mounts;
  {
    std::ifstream in(proc_self + "/mountinfo");
    std::string line;
    while (std::getline(in, line)) {
      // id parent dev root point options [optional...] - type source superoptions
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string s; words >> s;) w.push_back(s);
      const auto dash = std::find(w.begin(), w.end(), "-");
      if (w.size() < 5 || dash == w.end() || w.end() - dash < 4) continue;
      const std::string& type = *(dash + 1);
      const std::string options = "," + *(dash + 3) + ",";
      if (type == "cgroup2") v2_mounts.push_back({w[3], w[4]});
      else if (type == "cgroup" && options.find(",memory,") != std::string::npos)
        v1_mounts.push_back({w[3], w[4]});
    }
  }
  std::vector<cgroup_folder> out;
  std::ifstream in(proc_self + "/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // hierarchy-id:controllers:path; v2 is "0::path"
    const auto a = line.find(':');
    const auto b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    const std::string path = line.substr(b + 1);
    const bool v2 = line.compare(0, a, "0") == 0 && controllers == ",,";
    const bool v1_memory = controllers.find(",memory,") != std::string::npos;
    if (!v2 && !v1_memory) continue;
    const auto& mounts = v2 ? v2_mounts : v1_mounts;
    if (mounts.empty()) continue;
    const mount_of& m = mounts.front();
    std::string below;
    if (m.root == "/") below = path;
    else if (path == m.root || path.compare(0, m.root.size() + 1, m.root + "/") == 0)
      below = path.substr(m.root.size());
    const std::string mount = fs_root + m.point;
    out.push_back({v2, below == "/" ? mount : mount + below, mount});
  }
  return out;
}

/// Bytes left under the memory limits of one cgroup folder and every
/// ancestor up to its mount point (a job's limit often sits above the
/// task's own cgroup): the least of limit - usage, usage without the
/// inactive page cache the kernel reclaims first (MemAvailable's view).
inline std::uint64_t cgroup_folder_headroom(const cgroup_folder& c) {
  const char* limit_file = c.v2 ? "/memory.max" : "/memory.limit_in_bytes";
  const char* usage_file = c.v2 ? "/memory.current" : "/memory.usage_in_bytes";
  const char* inactive_key = c.v2 ? "inactive_file" : "total_inactive_file";
  // cgroup v1 writes "no limit" as the largest page-aligned counter value.
  constexpr std::uint64_t v1_unlimited = std::uint64_t(1) << 62;
  std::uint64_t left = no_memory_limit;
  std::string folder = c.folder;
  while (true) {
    std::uint64_t limit = 0, usage = 0;
    if (read_unsigned(first_line(folder + limit_file), limit) && limit < v1_unlimited &&
        read_unsigned(first_line(folder + usage_file), usage)) {
      const std::uint64_t inactive = stat_value(folder + "/memory.stat", inactive_key);
      left = std::min(left, headroom(limit, usage - std::min(usage, inactive)));
    }
    if (folder.size() <= c.mount.size()) break;
    const auto slash = folder.find_last_of('/');
    if (slash == std::string::npos || slash < c.mount.size()) break;
    folder.erase(slash);
  }
  return left;
}

/// Bytes left under every memory cgroup limit of the process described by
/// `proc_self` (cgroup v2 memory.max, v1 memory.limit_in_bytes), mount
/// points under `fs_root`; no_memory_limit when none is set.
inline std::uint64_t cgroup_headroom(const std::string& proc_self = "/proc/self",
                                     const std::string& fs_root = "") {
  std::uint64_t left = no_memory_limit;
  for (const cgroup_folder& c : memory_cgroups(proc_self, fs_root))
    left = std::min(left, cgroup_folder_headroom(c));
  return left;
}

/// The node's MemAvailable (free memory plus the page cache and buffers
/// the kernel would reclaim) from a meminfo file, else `fallback`. The
/// free pages alone undercount by the whole page cache.
inline std::uint64_t meminfo_available(const std::string& meminfo_path, std::uint64_t fallback) {
  std::ifstream meminfo(meminfo_path);
  std::string line;
  const std::string key = "MemAvailable:";
  while (std::getline(meminfo, line))
    if (line.compare(0, key.size(), key) == 0) {
      std::uint64_t kib = 0;
      if (read_unsigned(line.substr(key.size()), kib) && kib > 0) return kib * 1024;
    }
  return fallback;
}

}  // namespace kobalt::arch::detail
