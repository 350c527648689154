#include "report_output.hpp"

#include "core/charts.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace kl::cli {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> file_flags = {"json", "markdown", "tsv", "html"};

bool writable_directory(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error) && ::access(dir.c_str(), W_OK | X_OK) == 0;
}

// An existing regular file we may write, or a new name in a directory we may write to.
bool writable_file(const std::string& path) {
  std::error_code error;
  const fs::path p(path);
  if (path.empty()) return false;
  if (fs::exists(p, error)) return fs::is_regular_file(p, error) && ::access(path.c_str(), W_OK) == 0;
  return writable_directory(p.has_parent_path() ? p.parent_path() : fs::path("."));
}

// An existing directory we may write to, or a new one whose parent we may write to.
bool writable_dir(const std::string& path) {
  std::error_code error;
  const fs::path p(path);
  if (path.empty()) return false;
  if (fs::exists(p, error)) return writable_directory(p);
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  return writable_directory(parent);
}

}  // namespace

std::vector<FlagSpec> report_output_flags() {
  return {{"json", "FILE", "write the results and gates as JSON"},
          {"markdown", "FILE", "write the roofline-style table"},
          {"tsv", "FILE", "write key, metric, value, median/min/max ms per result"},
          {"html", "FILE", "write one self-contained page: roofline, ladders, sweeps, gates (inline SVG)"},
          {"svg", "DIR", "write each chart as its own SVG file into DIR (created if missing)"}};
}

void require_writable(const ParsedArgs& args, const std::vector<std::string>& more) {
  std::vector<std::string> flags = file_flags;
  flags.insert(flags.end(), more.begin(), more.end());
  for (const std::string& flag : flags) {
    if (!args.has(flag)) continue;
    const std::string path = args.text(flag, "");
    if (!writable_file(path)) throw UsageError("--" + flag + ": cannot write '" + path + "'");
  }
  if (args.has("svg") && !writable_dir(args.text("svg", "")))
    throw UsageError("--svg: cannot write into directory '" + args.text("svg", "") + "'");
}

std::string repository_path(const std::string& path) {
  std::error_code error;
  const fs::path file = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) return path;
  for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", error)) return file.lexically_relative(dir).generic_string();
    if (dir == dir.root_path()) break;
  }
  return path;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::trunc);
  file << text;
  if (!file) throw std::runtime_error("cannot write '" + path + "'");
}

void write_charts(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& charts) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw std::runtime_error("cannot create '" + dir + "': " + error.message());
  for (const auto& [name, svg] : charts) write_file((fs::path(dir) / name).string(), svg);
}

void write_report_outputs(const ParsedArgs& args, const bench::Report& report) {
  if (args.has("json")) write_file(args.text("json", ""), bench::to_json(report));
  if (args.has("markdown")) write_file(args.text("markdown", ""), bench::to_markdown(report));
  if (args.has("tsv")) write_file(args.text("tsv", ""), bench::to_tsv(report));
  if (args.has("html")) write_file(args.text("html", ""), bench::html_report(report));
  if (args.has("svg")) write_charts(args.text("svg", ""), bench::report_charts(report));
}

}  // namespace kl::cli
