// IsSameFile (pqpage/byte_source.h): what the recoders refuse as an output that is their input.
#include "pqpage/byte_source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace pqpage {
namespace {

// A new file at `path` holding `text`.
void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

class IsSameFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/pqpage_same_file_" + std::to_string(::getpid());
    ::mkdir(dir_.c_str(), 0700);
    for (const char* name : {"a", "b", "hard", "soft", "missing"}) {
      std::remove((dir_ + "/" + name).c_str());
    }
    WriteFile(path("a"), "same bytes");
    WriteFile(path("b"), "same bytes");
  }
  void TearDown() override {
    for (const char* name : {"a", "b", "hard", "soft", "missing"}) {
      std::remove((dir_ + "/" + name).c_str());
    }
    ::rmdir(dir_.c_str());
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(IsSameFileTest, APathIsItsOwnFileWhateverItsSpelling) {
  EXPECT_TRUE(IsSameFile(path("a"), path("a")));
  EXPECT_TRUE(IsSameFile(path("a"), dir_ + "/./a"));
}

TEST_F(IsSameFileTest, HardAndSymbolicLinksAreTheFileTheyLinkTo) {
  ASSERT_EQ(::link(path("a").c_str(), path("hard").c_str()), 0);
  ASSERT_EQ(::symlink(path("a").c_str(), path("soft").c_str()), 0);
  EXPECT_TRUE(IsSameFile(path("a"), path("hard")));
  EXPECT_TRUE(IsSameFile(path("soft"), path("a")));
  EXPECT_TRUE(IsSameFile(path("hard"), path("soft")));
  EXPECT_FALSE(IsSameFile(path("b"), path("soft")));
}

TEST_F(IsSameFileTest, DifferentFilesAreNotTheSameEvenWithTheSameBytes) {
  EXPECT_FALSE(IsSameFile(path("a"), path("b")));
}

TEST_F(IsSameFileTest, AMissingPathIsNoFile) {
  EXPECT_FALSE(IsSameFile(path("a"), path("missing")));
  EXPECT_FALSE(IsSameFile(path("missing"), path("a")));
  EXPECT_FALSE(IsSameFile(path("missing"), path("missing")));
  // A symbolic link to nothing yet: the output it names would be a new file.
  ASSERT_EQ(::symlink(path("missing").c_str(), path("soft").c_str()), 0);
  EXPECT_FALSE(IsSameFile(path("a"), path("soft")));
}

}  // namespace
}  // namespace pqpage
