// kernel-lab's commands. main() maps outcomes to exit codes:
//   0 success; 1 a check failed or CUDA reported an error; 2 bad input, unknown variant,
//   unsupported shape, no GPU, or a missing tool.
#pragma once

#include "args.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace kl::cli {

int main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

const std::vector<CommandSpec>& command_specs();
std::string usage();
// One command's part of usage() (`kernel-lab help run`, `kernel-lab run --help`); throws
// UsageError for an unknown command.
std::string command_usage(const std::string& command);
// "kernel-lab 0.1.0 (commit 1a2b3c4)": the project version and the commit it was built from; a
// program of another project says "<its name> on the harness of kernel-lab 0.1.0 (...)".
std::string version_line();
// The name usage lines and messages print: "kernel-lab" unless main() set its argv[0].
const std::string& program_name();
void set_program_name(const std::string& path);

int cmd_list(const ParsedArgs& args, std::ostream& out);
int cmd_info(const ParsedArgs& args, std::ostream& out);
int cmd_run(const ParsedArgs& args, std::ostream& out);
int cmd_bench(const ParsedArgs& args, std::ostream& out);
int cmd_gates(const ParsedArgs& args, std::ostream& out);
int cmd_compare(const ParsedArgs& args, std::ostream& out);
int cmd_report(const ParsedArgs& args, std::ostream& out);
int cmd_sanitize(const ParsedArgs& args, std::ostream& out);
int cmd_expect(const ParsedArgs& args, std::ostream& out);
int cmd_repro(const ParsedArgs& args, std::ostream& out);
int cmd_new_family(const ParsedArgs& args, std::ostream& out);

// JSON string literal for `text` (quotes included).
std::string json_quote(const std::string& text);

}  // namespace kl::cli
