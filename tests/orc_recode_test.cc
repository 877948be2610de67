// RecodeOrcFile (pqpage/orc/recode.h) on a file on disk: a recode to a new file, and the refusal
// of an output that is the input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "pqpage/orc/file.h"
#include "pqpage/orc/recode.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::orc {
namespace {

using absl::StatusCode;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class OrcRecodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = testing::TestTempPath("in.orc");
    out_ = testing::TestTempPath("out.orc");
    link_ = testing::TestTempPath("link.orc");
    TearDown();
    original_ = ReadAll(std::string(PQPAGE_TESTFILES_DIR) + "/orc/zlib_v0_12.orc");
    ASSERT_FALSE(original_.empty());
    std::ofstream(in_, std::ios::binary) << original_;
  }
  void TearDown() override {
    for (const std::string* path : {&in_, &out_, &link_}) std::remove(path->c_str());
  }

  std::string in_, out_, link_, original_;
};

TEST_F(OrcRecodeTest, ANewOutputIsWrittenAndVerified) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> input, OrcFileReader::Open(in_));
  OrcRecodeOptions options = RecodeOptionsLike(*input);
  options.verify = true;
  PQPAGE_ASSERT_OK(RecodeOrcFile(*input, in_, out_, options));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> output, OrcFileReader::Open(out_));
  EXPECT_EQ(output->num_rows(), input->num_rows());
}

TEST_F(OrcRecodeTest, AnOutputThatIsTheInputIsRefusedAndTheInputKept) {
  ASSERT_EQ(::link(in_.c_str(), link_.c_str()), 0);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OrcFileReader> input, OrcFileReader::Open(in_));
  const OrcRecodeOptions options = RecodeOptionsLike(*input);
  for (const std::string& out : {in_, link_}) {
    const absl::Status status = RecodeOrcFile(*input, in_, out, options);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status;
    EXPECT_NE(status.message().find("is the input file"), std::string::npos) << status;
    EXPECT_EQ(ReadAll(in_), original_) << out;
  }
}

}  // namespace
}  // namespace pqpage::orc
