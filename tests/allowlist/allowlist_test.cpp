// Tests for the extension allowlist: parsing (valid and each kind of invalid line), loading (with the OS
// errors), caller identity (executable path, application id from the setter and from NNRT_APP_ID) and the
// decision under each policy. Binary entries are checked against this test program itself, directly and
// through a symlink.
#include "allowlist/allowlist.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace nnrt::allowlist {
namespace {

namespace fs = std::filesystem;

using Kind = Entry::Kind;

// A fresh directory under the system temp folder, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "nnrt_allowlist_XXXXXX").string();
    char* made = ::mkdtemp(pattern.data());
    EXPECT_NE(made, nullptr) << "mkdtemp failed";
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

  fs::path write(const std::string& name, const std::string& text) const {
    fs::path file = path_ / name;
    std::ofstream(file) << text;
    return file;
  }

 private:
  fs::path path_;
};

std::string selfExecutable() {
  return fs::canonical("/proc/self/exe").string();
}

// Application-id state is process-wide; every test starts and ends without one.
class AllowlistTest : public ::testing::Test {
 protected:
  void SetUp() override { clearAppId(); }
  void TearDown() override { clearAppId(); }
  static void clearAppId() {
    setApplicationId("");
    ::unsetenv("NNRT_APP_ID");
  }
};

TEST_F(AllowlistTest, CommentsAndBlankLinesAreIgnored) {
  Allowlist list = parseAllowlist(
      "# vendor extension allowlist\n"
      "\n"
      "   \t  \n"
      "  # indented comment\n"
      "/usr/bin/tool\n"
      "#/usr/bin/commented_out\n",
      "test.list");
  EXPECT_EQ(list.source, "test.list");
  EXPECT_TRUE(list.invalid.empty());
  ASSERT_EQ(list.entries.size(), 1u);
  EXPECT_EQ(list.entries[0].kind, Kind::BinaryPath);
  EXPECT_EQ(list.entries[0].value, "/usr/bin/tool");
  EXPECT_EQ(list.entries[0].line, 5u);
}

TEST_F(AllowlistTest, EmptyTextHasNoEntries) {
  Allowlist list = parseAllowlist("", "empty");
  EXPECT_TRUE(list.entries.empty());
  EXPECT_TRUE(list.invalid.empty());
}

TEST_F(AllowlistTest, TrailingCommentsAndWhitespaceAreStripped) {
  Allowlist list = parseAllowlist(
      "  /opt/vendor/bin/runner   # the benchmark runner\n"
      "com.example.app\t# the demo app\r\n"
      "/opt/a#b\n",
      "t");
  EXPECT_TRUE(list.invalid.empty());
  ASSERT_EQ(list.entries.size(), 3u);
  EXPECT_EQ(list.entries[0].value, "/opt/vendor/bin/runner");
  EXPECT_EQ(list.entries[0].line, 1u);
  EXPECT_EQ(list.entries[1].kind, Kind::Package);
  EXPECT_EQ(list.entries[1].value, "com.example.app");
  EXPECT_EQ(list.entries[1].line, 2u);
  // '#' glued to the entry is part of it, not a comment.
  EXPECT_EQ(list.entries[2].kind, Kind::BinaryPath);
  EXPECT_EQ(list.entries[2].value, "/opt/a#b");
}

TEST_F(AllowlistTest, BinaryEntries) {
  Allowlist list = parseAllowlist("/data/foo\n/usr/local/bin/my_tool-2.1\n/a\n", "t");
  EXPECT_TRUE(list.invalid.empty());
  ASSERT_EQ(list.entries.size(), 3u);
  for (const Entry& e : list.entries)
    EXPECT_EQ(e.kind, Kind::BinaryPath) << e.value;
  EXPECT_EQ(list.entries[0].value, "/data/foo");
  EXPECT_EQ(list.entries[1].value, "/usr/local/bin/my_tool-2.1");
  EXPECT_EQ(list.entries[2].value, "/a");
  EXPECT_EQ(list.entries[2].line, 3u);
}

TEST_F(AllowlistTest, PackageEntries) {
  Allowlist list = parseAllowlist("com.foo.bar\norg.example.My_App2\na.b\n", "t");
  EXPECT_TRUE(list.invalid.empty());
  ASSERT_EQ(list.entries.size(), 3u);
  for (const Entry& e : list.entries)
    EXPECT_EQ(e.kind, Kind::Package) << e.value;
  EXPECT_EQ(list.entries[0].value, "com.foo.bar");
  EXPECT_EQ(list.entries[1].value, "org.example.My_App2");
  EXPECT_EQ(list.entries[2].value, "a.b");
  EXPECT_EQ(list.entries[2].line, 3u);
}

TEST_F(AllowlistTest, InvalidLinesAreReportedWithLineNumbersAndDoNotSpoilTheRest) {
  Allowlist list = parseAllowlist(
      "# header\n"              // 1
      "com.good.app\n"          // 2
      "foo\n"                   // 3: neither
      "bin/tool\n"              // 4: relative path
      "com..double\n"           // 5: empty segment
      ".com.leading\n"          // 6: empty segment
      "foo bar\n"               // 7: neither
      "com.example.my-app\n"    // 8: bad character
      "com.example app\n"       // 9: whitespace in package
      "/usr/bin/with space\n"   // 10: whitespace in path
      "/usr/bin/\n"             // 11: directory
      "com.trailing.\n"         // 12: empty segment
      "/usr/bin/good  # ok\n",  // 13
      "bad.list");
  ASSERT_EQ(list.entries.size(), 2u);
  EXPECT_EQ(list.entries[0].value, "com.good.app");
  EXPECT_EQ(list.entries[0].line, 2u);
  EXPECT_EQ(list.entries[1].value, "/usr/bin/good");
  EXPECT_EQ(list.entries[1].line, 13u);

  ASSERT_EQ(list.invalid.size(), 10u);
  const auto& inv = list.invalid;
  EXPECT_EQ(inv[0].line, 3u);
  EXPECT_EQ(inv[0].text, "foo");
  EXPECT_EQ(inv[0].reason, "'foo' is neither an absolute path nor a package name");

  EXPECT_EQ(inv[1].line, 4u);
  EXPECT_EQ(inv[1].reason,
            "'bin/tool' is a relative path; executable entries must be absolute (start with '/')");

  EXPECT_EQ(inv[2].line, 5u);
  EXPECT_EQ(inv[2].reason,
            "package name 'com..double' has an empty segment (leading, trailing or doubled '.')");
  EXPECT_EQ(inv[3].line, 6u);
  EXPECT_EQ(inv[3].reason,
            "package name '.com.leading' has an empty segment (leading, trailing or doubled '.')");

  EXPECT_EQ(inv[4].line, 7u);
  EXPECT_EQ(inv[4].text, "foo bar");
  EXPECT_EQ(describe(inv[4]), "line 7: 'foo bar' is neither an absolute path nor a package name");

  EXPECT_EQ(inv[5].line, 8u);
  EXPECT_EQ(inv[5].reason,
            "package name 'com.example.my-app' contains '-'; only letters, digits, '_' and '.' are allowed");

  EXPECT_EQ(inv[6].line, 9u);
  EXPECT_EQ(inv[6].reason, "package name 'com.example app' contains whitespace");

  EXPECT_EQ(inv[7].line, 10u);
  EXPECT_EQ(inv[7].reason,
            "'/usr/bin/with space' contains whitespace (one entry a line; paths with whitespace are not "
            "supported)");

  EXPECT_EQ(inv[8].line, 11u);
  EXPECT_EQ(inv[8].reason, "'/usr/bin/' ends with '/', so it names a directory, not an executable");

  EXPECT_EQ(inv[9].line, 12u);
  EXPECT_EQ(describe(inv[9]),
            "line 12: package name 'com.trailing.' has an empty segment (leading, trailing or doubled '.')");
}

TEST_F(AllowlistTest, NonAsciiByteInPackageNameIsShownAsHex) {
  Allowlist list = parseAllowlist("com.caf\xc3\xa9.app\n", "t");
  ASSERT_EQ(list.invalid.size(), 1u);
  EXPECT_EQ(list.invalid[0].line, 1u);
  EXPECT_NE(list.invalid[0].reason.find("contains byte 0xc3"), std::string::npos) << list.invalid[0].reason;
}

TEST_F(AllowlistTest, LoadsFileAndUsesPathAsSource) {
  TempDir dir;
  fs::path file = dir.write("allowlist", "/usr/bin/tool\ncom.example.app\nnot valid\n");
  LoadResult result = loadAllowlist(file.string());
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_TRUE(result.error.empty());
  EXPECT_EQ(result.list->source, file.string());
  ASSERT_EQ(result.list->entries.size(), 2u);
  EXPECT_EQ(result.list->entries[0].value, "/usr/bin/tool");
  EXPECT_EQ(result.list->entries[1].value, "com.example.app");
  ASSERT_EQ(result.list->invalid.size(), 1u);
  EXPECT_EQ(result.list->invalid[0].line, 3u);
}

TEST_F(AllowlistTest, MissingFileIsAnErrorNamingFileAndReason) {
  TempDir dir;
  std::string missing = (dir.path() / "does_not_exist").string();
  LoadResult result = loadAllowlist(missing);
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(result.list.has_value());
  EXPECT_EQ(result.error, "cannot read allowlist file '" + missing + "': No such file or directory");
}

TEST_F(AllowlistTest, DirectoryInsteadOfFileIsAnError) {
  TempDir dir;
  LoadResult result = loadAllowlist(dir.path().string());
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error, "cannot read allowlist file '" + dir.path().string() + "': Is a directory");
}

TEST_F(AllowlistTest, PathThroughAFileIsAnError) {
  TempDir dir;
  fs::path file = dir.write("plain", "/usr/bin/tool\n");
  std::string below = (file / "allowlist").string();
  LoadResult result = loadAllowlist(below);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error, "cannot read allowlist file '" + below + "': Not a directory");
}

TEST_F(AllowlistTest, UnreadableFileIsAnError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can read a file without read permission";
  TempDir dir;
  fs::path file = dir.write("secret", "/usr/bin/tool\n");
  ASSERT_EQ(::chmod(file.c_str(), 0), 0);
  LoadResult result = loadAllowlist(file.string());
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error, "cannot read allowlist file '" + file.string() + "': Permission denied");
}

TEST_F(AllowlistTest, CurrentCallerIsThisTestBinary) {
  CallerIdentity caller = currentCaller();
  EXPECT_EQ(caller.executable, selfExecutable());
  EXPECT_NE(caller.executable.find("allowlist_test"), std::string::npos) << caller.executable;
  EXPECT_FALSE(caller.appId.has_value());
}

TEST_F(AllowlistTest, AppIdFromSetterWinsOverEnvironment) {
  ASSERT_EQ(::setenv("NNRT_APP_ID", "com.from.env", 1), 0);
  EXPECT_EQ(currentCaller().appId, std::optional<std::string>("com.from.env"));
  setApplicationId("com.from.setter");
  EXPECT_EQ(currentCaller().appId, std::optional<std::string>("com.from.setter"));
  setApplicationId("");  // clearing falls back to the environment
  EXPECT_EQ(currentCaller().appId, std::optional<std::string>("com.from.env"));
  ASSERT_EQ(::setenv("NNRT_APP_ID", "", 1), 0);  // empty means unset
  EXPECT_FALSE(currentCaller().appId.has_value());
}

TEST_F(AllowlistTest, ParseExtensionAccess) {
  EXPECT_EQ(parseExtensionAccess("all"), ExtensionAccess::All);
  EXPECT_EQ(parseExtensionAccess("allowlist"), ExtensionAccess::Allowlist);
  EXPECT_EQ(parseExtensionAccess("none"), ExtensionAccess::None);
  EXPECT_FALSE(parseExtensionAccess("All").has_value());
  EXPECT_FALSE(parseExtensionAccess("").has_value());
  EXPECT_FALSE(parseExtensionAccess("yes").has_value());
  for (ExtensionAccess a : {ExtensionAccess::All, ExtensionAccess::Allowlist, ExtensionAccess::None}) {
    EXPECT_EQ(parseExtensionAccess(toString(a)), a);
  }
}

TEST_F(AllowlistTest, AllowedBinaryByRealPath) {
  std::string self = selfExecutable();
  Allowlist list = parseAllowlist("# tools\n/usr/bin/true\n" + self + "\n", "/etc/nnrt/allowlist");
  Decision d = decide(ExtensionAccess::Allowlist, &list, currentCaller());
  EXPECT_TRUE(d.allowed) << d.reason;
  EXPECT_EQ(d.reason, "executable '" + self + "' is listed in allowlist '/etc/nnrt/allowlist' (line 3)");
}

TEST_F(AllowlistTest, AllowedBinaryThroughSymlinkListedInFile) {
  TempDir dir;
  fs::path link = dir.path() / "linked_test_binary";
  fs::create_symlink(selfExecutable(), link);
  fs::path file = dir.write("allowlist", link.string() + "\n");
  LoadResult loaded = loadAllowlist(file.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  ASSERT_EQ(loaded.list->entries.size(), 1u);
  EXPECT_EQ(loaded.list->entries[0].value, link.string());

  Decision d = decide(ExtensionAccess::Allowlist, &*loaded.list, currentCaller());
  EXPECT_TRUE(d.allowed) << d.reason;
  EXPECT_NE(d.reason.find(selfExecutable()), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find(file.string()), std::string::npos) << d.reason;
}

TEST_F(AllowlistTest, DeniedBinaryNamesExecutableMissingAppIdAndSource) {
  Allowlist list = parseAllowlist("/usr/bin/true\ncom.other.app\n", "/etc/nnrt/allowlist");
  Decision d = decide(ExtensionAccess::Allowlist, &list, currentCaller());
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, "extensions are not allowed: executable '" + selfExecutable() +
                          "' is not listed in allowlist '/etc/nnrt/allowlist', and no application id is set "
                          "(setApplicationId or NNRT_APP_ID)");
}

TEST_F(AllowlistTest, DeniedWithAppIdNamesBoth) {
  setApplicationId("com.example.unlisted");
  Allowlist list = parseAllowlist("com.example.app\n", "vendor.list");
  Decision d = decide(ExtensionAccess::Allowlist, &list, currentCaller());
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, "extensions are not allowed: neither executable '" + selfExecutable() +
                          "' nor application id 'com.example.unlisted' is listed in allowlist 'vendor.list'");
}

TEST_F(AllowlistTest, PackageAllowedViaSetApplicationId) {
  Allowlist list = parseAllowlist("/usr/bin/true\ncom.example.app\n", "vendor.list");
  EXPECT_FALSE(decide(ExtensionAccess::Allowlist, &list, currentCaller()).allowed);
  setApplicationId("com.example.app");
  Decision d = decide(ExtensionAccess::Allowlist, &list, currentCaller());
  EXPECT_TRUE(d.allowed) << d.reason;
  EXPECT_EQ(d.reason, "application id 'com.example.app' is listed in allowlist 'vendor.list' (line 2)");
}

TEST_F(AllowlistTest, PackageMatchIsExact) {
  Allowlist list = parseAllowlist("com.example.app\n", "vendor.list");
  for (const char* id : {"com.example.App", "com.example.app2", "com.example", "example.app"}) {
    setApplicationId(id);
    EXPECT_FALSE(decide(ExtensionAccess::Allowlist, &list, currentCaller()).allowed) << id;
  }
}

TEST_F(AllowlistTest, PackageAllowedViaEnvironment) {
  Allowlist list = parseAllowlist("com.example.app\n", "vendor.list");
  ASSERT_EQ(::setenv("NNRT_APP_ID", "com.example.app", 1), 0);
  Decision d = decide(ExtensionAccess::Allowlist, &list, currentCaller());
  EXPECT_TRUE(d.allowed) << d.reason;
  EXPECT_EQ(d.reason, "application id 'com.example.app' is listed in allowlist 'vendor.list' (line 1)");
}

TEST_F(AllowlistTest, AllModeAllowsEveryone) {
  CallerIdentity stranger{"/nowhere/program", std::nullopt};
  Decision d = decide(ExtensionAccess::All, nullptr, stranger);
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.reason, "extensions are allowed for every program by policy (extensions.allow: all)");
}

TEST_F(AllowlistTest, NoneModeDeniesEvenListedCallers) {
  std::string self = selfExecutable();
  Allowlist list = parseAllowlist(self + "\n", "vendor.list");
  Decision d = decide(ExtensionAccess::None, &list, currentCaller());
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, "extensions are disabled by policy (extensions.allow: none)");
}

TEST_F(AllowlistTest, NullListUnderAllowlistModeDenies) {
  Decision d = decide(ExtensionAccess::Allowlist, nullptr, currentCaller());
  EXPECT_FALSE(d.allowed);
  EXPECT_NE(d.reason.find("no allowlist file was loaded"), std::string::npos) << d.reason;
}

TEST_F(AllowlistTest, UnknownExecutableMatchesNoBinaryEntry) {
  Allowlist list = parseAllowlist("/usr/bin/true\n", "vendor.list");
  CallerIdentity unknown{"", std::nullopt};
  Decision d = decide(ExtensionAccess::Allowlist, &list, unknown);
  EXPECT_FALSE(d.allowed);
  EXPECT_NE(d.reason.find("its path is unknown"), std::string::npos) << d.reason;
}

}  // namespace
}  // namespace nnrt::allowlist
