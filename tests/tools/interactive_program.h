// A program run as a separate process that a test talks to as a person at a
// terminal would: lines written to its stdin one at a time, its stdout read
// as it comes (by a thread of its own), and waits for what it prints with a
// timeout, so that a session that stalls fails the test instead of hanging
// it. Pipes, not a pseudo-terminal: the program sees piped input, as a
// script driving it would.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace foxgeese::test {

class InteractiveProgram {
  public:
    using Clock = std::chrono::steady_clock;

    explicit InteractiveProgram(std::vector<std::string> argv_strings) {
        int in[2], out[2], err[2];
        EXPECT_EQ(pipe2(in, O_CLOEXEC), 0);
        EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
        EXPECT_EQ(pipe2(err, O_CLOEXEC), 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        std::vector<char*> argv;
        for (std::string& s : argv_strings)
            argv.push_back(s.data());
        argv.push_back(nullptr);
        // The client's own variables must not leak in from where tests run.
        std::vector<std::string> env_strings;
        for (char** e = environ; *e != nullptr; ++e) {
            const std::string entry = *e;
            if (!entry.starts_with("FOXGEESE_")) env_strings.push_back(entry);
        }
        std::vector<char*> envp;
        for (std::string& s : env_strings)
            envp.push_back(s.data());
        envp.push_back(nullptr);
        EXPECT_EQ(posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()), 0)
            << argv_strings[0];
        posix_spawn_file_actions_destroy(&actions);
        close(in[0]);
        close(out[1]);
        close(err[1]);
        stdin_ = in[1];
        out_reader_ = std::thread([this, fd = out[0]] { drain(fd, out_); });
        err_reader_ = std::thread([this, fd = err[0]] { drain(fd, err_); });
    }

    ~InteractiveProgram() {
        close_input();
        if (!exit_status_) {
            kill(pid_, SIGKILL);
            int status = 0;
            waitpid(pid_, &status, 0);
        }
        out_reader_.join();
        err_reader_.join();
    }
    InteractiveProgram(const InteractiveProgram&) = delete;
    InteractiveProgram& operator=(const InteractiveProgram&) = delete;

    void write_line(const std::string& line) {
        const std::string bytes = line + "\n";
        ASSERT_EQ(write(stdin_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    }
    void close_input() {
        if (stdin_ >= 0) close(stdin_);
        stdin_ = -1;
    }

    std::string out() const {
        std::lock_guard lock(mutex_);
        return out_;
    }
    std::string err() const {
        std::lock_guard lock(mutex_);
        return err_;
    }

    // Waits until what the program printed satisfies `done`; false (and the
    // output in the failure message) if it does not within `timeout`.
    bool wait_for_output(const std::function<bool(const std::string&)>& done,
                         const std::string& what,
                         Clock::duration timeout = std::chrono::seconds(20)) {
        std::unique_lock lock(mutex_);
        if (changed_.wait_for(lock, timeout, [&] { return done(out_); })) return true;
        ADD_FAILURE() << "waited for " << what << "; the program printed:\n"
                      << out_ << "\nand on stderr:\n"
                      << err_;
        return false;
    }

    // The exit status once the program ended; -1 if it did not within
    // `timeout` (it is killed then) or ended by a signal.
    int wait_for_exit(Clock::duration timeout = std::chrono::seconds(20)) {
        if (exit_status_) return *exit_status_;
        const auto deadline = Clock::now() + timeout;
        int status = 0;
        while (waitpid(pid_, &status, WNOHANG) == 0) {
            if (Clock::now() > deadline) {
                kill(pid_, SIGKILL);
                waitpid(pid_, &status, 0);
                ADD_FAILURE() << "the program did not exit; it printed:\n" << out();
                exit_status_ = -1;
                return -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return *exit_status_;
    }

  private:
    void drain(int fd, std::string& into) {
        char buffer[4096];
        while (true) {
            const ssize_t n = read(fd, buffer, sizeof buffer);
            if (n <= 0) break;
            {
                std::lock_guard lock(mutex_);
                into.append(buffer, static_cast<std::size_t>(n));
            }
            changed_.notify_all();
        }
        close(fd);
    }

    pid_t pid_ = 0;
    int stdin_ = -1;
    std::optional<int> exit_status_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::string out_;
    std::string err_;
    std::thread out_reader_;
    std::thread err_reader_;
};

}  // namespace foxgeese::test
