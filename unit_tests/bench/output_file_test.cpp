// SPDX-License-Identifier: BSD-3-Clause
// The output files of kobalt-bench and kobalt-tune (perf_tests/output_file.hpp):
// which targets are refused (matrix names in any case, inputs by path and
// by inode, links, folders, pipes, files of other programs) and that a
// replacement touches nothing but the target, leaves no temporary behind
// and keeps the old file when the write fails.
#include <gtest/gtest.h>

#include "fixtures/scratch_folder.hpp"
#include "output_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace kobalt::test {
namespace {

namespace fs = std::filesystem;
using bench::OutputKind;
using bench::output_refusal;

const OutputKind report{"--json", "a kobalt-bench report", "\"kobalt_bench\""};

class OutputFile : public ScratchFolder {
 protected:
  std::string read(const std::string& name) const {
    std::ifstream in(at(name));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  /// Names in the folder, hidden ones included.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder())) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
};

TEST(OutputFileName, MatrixNamesInAnyCaseAndCompressed) {
  for (const char* name : {"a.mtx", "A.MTX", "dir/b.Mtx", "c.mtx.gz", "d.MTX.GZ", "e.mtx.bz2",
                           "f.mtx.xz", "g.mm", "h.MM.zst"})
    EXPECT_TRUE(bench::looks_like_matrix_file(name)) << name;
  for (const char* name : {"r.json", "mtx", "r.mtx.json", "gz", "plain", ".mtx", "a.mtxx"})
    EXPECT_FALSE(bench::looks_like_matrix_file(name)) << name;
}

TEST_F(OutputFile, RefusesInputsByPathAndByInode) {
  write("in.txt", "%%MatrixMarket matrix coordinate real general\n1 1 0\n");
  // Another spelling of the same path, and a hard link: the same file.
  EXPECT_NE(output_refusal(report, at("sub/../in.txt"), {at("in.txt")}), "");
  ASSERT_EQ(::link(at("in.txt").c_str(), at("alias.json").c_str()), 0);
  EXPECT_NE(output_refusal(report, at("alias.json"), {at("in.txt")}).find("is also an input"),
            std::string::npos);
  // Not an input, but a Matrix Market file by content.
  EXPECT_NE(output_refusal(report, at("alias.json"), {}).find("holds a Matrix Market matrix"),
            std::string::npos);
}

TEST_F(OutputFile, RefusesWhatIsNotARegularFileOfItsOwn) {
  EXPECT_NE(output_refusal(report, "", {}), "");
  EXPECT_NE(output_refusal(report, folder().string(), {}).find("is a folder"), std::string::npos);
  write("target.json", "{\"kobalt_bench\": 1}");
  fs::create_symlink("target.json", folder() / "link.json");
  EXPECT_NE(output_refusal(report, at("link.json"), {}).find("symbolic link"), std::string::npos);
  ASSERT_EQ(::mkfifo(at("pipe.json").c_str(), 0600), 0);
  EXPECT_NE(output_refusal(report, at("pipe.json"), {}).find("not a regular file"),
            std::string::npos);
  EXPECT_NE(output_refusal(report, "/dev/null", {}).find("not a regular file"), std::string::npos);
  write("notes.txt", "my notes");
  EXPECT_NE(output_refusal(report, at("notes.txt"), {}).find("is not a kobalt-bench report"),
            std::string::npos);
  // A profile is a JSON object without the report's marker.
  write("profile.json", "{\n  \"name\": \"x\"\n}\n");
  EXPECT_NE(output_refusal(report, at("profile.json"), {}), "");
  const OutputKind profile{"--out", "a device profile", nullptr};
  EXPECT_EQ(output_refusal(profile, at("profile.json"), {}), "");
  // Its own report, an empty file and a new name may be written.
  EXPECT_EQ(output_refusal(report, at("target.json"), {}), "");
  write("empty.json", "");
  EXPECT_EQ(output_refusal(report, at("empty.json"), {}), "");
  EXPECT_EQ(output_refusal(report, at("new.json"), {}), "");
}

TEST_F(OutputFile, ReplacesOnlyTheTargetAndLeavesNoTemporary) {
  write("r.json.tmp", "someone else's");
  write("r.json", "{\"kobalt_bench\": \"old\"}");
  std::string error;
  const auto writes = [](const std::string& text) {
    return [text](const std::string& file) {
      std::ofstream out(file);
      out << text;
      return static_cast<bool>(out);
    };
  };
  ASSERT_TRUE(bench::replace_file(report, at("r.json"), {}, writes("{\"kobalt_bench\": 2}"), error))
      << error;
  EXPECT_EQ(read("r.json"), "{\"kobalt_bench\": 2}");
  EXPECT_EQ(read("r.json.tmp"), "someone else's");
  EXPECT_EQ(listing(), (std::vector<std::string>{"r.json", "r.json.tmp"}));
  // A failed write keeps the old file and leaves nothing behind.
  EXPECT_FALSE(bench::replace_file(report, at("r.json"), {},
                                   [](const std::string&) { return false; }, error));
  EXPECT_FALSE(bench::replace_file(
      report, at("r.json"), {},
      [](const std::string&) -> bool { throw std::runtime_error("disk full"); }, error));
  EXPECT_EQ(error, "disk full");
  EXPECT_EQ(read("r.json"), "{\"kobalt_bench\": 2}");
  EXPECT_EQ(listing(), (std::vector<std::string>{"r.json", "r.json.tmp"}));
  // A target that became a link while the run went on is not replaced.
  fs::remove(folder() / "r.json");
  write("other.json", "{\"kobalt_bench\": \"other\"}");
  fs::create_symlink("other.json", folder() / "r.json");
  EXPECT_FALSE(bench::replace_file(report, at("r.json"), {}, writes("{}"), error));
  EXPECT_TRUE(fs::is_symlink(folder() / "r.json"));
  EXPECT_EQ(read("other.json"), "{\"kobalt_bench\": \"other\"}");
}

TEST_F(OutputFile, CheckOutputNeedsAFolderThatTakesFiles) {
  EXPECT_THROW(bench::check_output(report, at("no/such/r.json"), {}), bench::usage_error);
  EXPECT_NO_THROW(bench::check_output(report, at("r.json"), {}));
  EXPECT_EQ(listing(), std::vector<std::string>{});  // the probe left nothing
}

}  // namespace
}  // namespace kobalt::test
