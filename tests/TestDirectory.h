#pragma once
// A fresh directory for one test: under the system's temporary directory, named after a prefix
// and the running test (tests that run at the same time never share one), emptied when made and
// removed with everything in it when the test ends.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace atl::test {

class TestDirectory {
 public:
  explicit TestDirectory(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + "_" + test_name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TestDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TestDirectory(const TestDirectory&) = delete;
  TestDirectory& operator=(const TestDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// The path of `name` in the directory.
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  // The running test's name, one path component: a parameterised test's "Name/3" becomes
  // "Name_3" (as a nested path it left "Name" behind).
  static std::string test_name() {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name)
      if (c == '/') c = '_';
    return name;
  }

  std::filesystem::path path_;
};

}  // namespace atl::test
