// Runs a program as a separate process for a test: stdin from a string,
// stdout and stderr captured, the exit status; killed if it hangs.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace foxgeese::test {

struct ProgramOutput {
    int exit_status = -1;  // -1: did not exit normally
    std::string out;
    std::string err;
};

// A file in the temporary directory, removed with this object.
class ScratchFile {
  public:
    ScratchFile() {
        path_ = (std::filesystem::temp_directory_path() / "foxgeese_program_XXXXXX").string();
        fd_ = mkstemp(path_.data());
        EXPECT_GE(fd_, 0) << path_;
    }
    ~ScratchFile() {
        if (fd_ >= 0) close(fd_);
        unlink(path_.c_str());
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    std::string contents() const {
        std::ifstream in(path_, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }

  private:
    std::string path_;
    int fd_ = -1;
};

// Runs argv[0] with `input` on stdin, in `env` ("NAME=value" entries; null:
// this process's environment). A program still running after `timeout` is
// killed and the test fails.
inline ProgramOutput run_program(std::vector<std::string> argv_strings, const std::string& input,
                                 const std::vector<std::string>* env = nullptr,
                                 std::chrono::seconds timeout = std::chrono::seconds(60)) {
    ScratchFile in, out, err;
    { std::ofstream(in.path(), std::ios::binary) << input; }
    std::vector<char*> argv;
    for (std::string& s : argv_strings)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_strings = env ? *env : std::vector<std::string>{};
    std::vector<char*> envp;
    for (std::string& s : env_strings)
        envp.push_back(s.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, in.path().c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.fd(), 1);
    posix_spawn_file_actions_adddup2(&actions, err.fd(), 2);
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env ? envp.data() : environ);
    posix_spawn_file_actions_destroy(&actions);
    ProgramOutput result;
    if (spawned != 0) {
        ADD_FAILURE() << "cannot run " << argv_strings[0];
        return result;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            ADD_FAILURE() << argv_strings[0] << " did not finish within " << timeout.count()
                          << " s";
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = out.contents();
    result.err = err.contents();
    return result;
}

}  // namespace foxgeese::test
