// Server processes for tests that need real ones (a SIGKILL, a restart):
// started with posix_spawn, output appended to a log file, and killed and
// reaped when the object goes, whatever assertion failed first.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace foxgeese::test {

class ChildProcess {
  public:
    ChildProcess() = default;
    ~ChildProcess() { kill_now(); }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts argv[0] with stdin from /dev/null, stdout and stderr appended to
    // `log_path`, an empty signal mask and default signal handlers (whatever
    // this process set up). With a `stderr_fd`, stderr goes there instead
    // (the write end of a pipe the test reads, and may close). Returns "" or
    // what went wrong.
    std::string start(const std::vector<std::string>& argv, const std::string& log_path,
                      int stderr_fd = -1);

    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }
    void send(int sig) const;

    // The wait status once it has exited (it is reaped then), or nothing if
    // it still runs after `timeout`.
    std::optional<int> wait_exit(std::chrono::steady_clock::duration timeout);
    // Whether it has exited (and is reaped now).
    bool exited();
    // SIGKILL, then reap: no goodbye to anyone.
    void kill_now();

  private:
    pid_t pid_ = -1;
};

// `n` distinct ports nothing holds right now, below the kernel's ephemeral
// range (see the .cpp). They are only free, not reserved: a test that loses
// the race reports the server's log.
std::vector<int> free_ports(int n);

// A new directory /tmp/<prefix>-XXXXXX for a test's server logs; "" when
// it cannot be made.
std::string make_temp_dir(const std::string& prefix);

// A server's log as a failing test prints it (nothing when there is none).
std::string log_for_failure(const std::string& log_path);

// "exit status 0", "signal Killed", ...
std::string describe_wait_status(int status);

}  // namespace foxgeese::test
