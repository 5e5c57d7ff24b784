#include "service/runtime/embedded_postgres.h"

#include <fcntl.h>
#include <grp.h>
#include <locale.h>
#include <pwd.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "service/runtime/text_encoding.h"

namespace foxgeese::service {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSuperuser = "foxgeese";
constexpr const char* kLogFile = "postgres.log";
constexpr const char* kTempSocketPrefix = "foxgeese-pg-";
// sun_path holds 108 bytes; stay well inside it.
constexpr std::size_t kMaxSocketPath = 100;
constexpr int kStartTimeoutSeconds = 120;
constexpr int kStopTimeoutSeconds = 60;

std::runtime_error failure(const std::string& message) {
    return std::runtime_error("embedded PostgreSQL: " + message);
}

// The user the PostgreSQL processes run as. PostgreSQL refuses to run as root,
// so root hands the cluster to an unprivileged user.
struct RunAs {
    bool switch_user = false;
    uid_t uid = 0;
    gid_t gid = 0;
    std::string name;
};

// Async-signal-safe: runs in a forked child.
bool drop_privileges(const RunAs& as) {
    if (!as.switch_user) return true;
    return setgroups(1, &as.gid) == 0 && setgid(as.gid) == 0 && setuid(as.uid) == 0;
}

// Async-signal-safe: a child must not inherit a blocked or ignored signal
// (PostgreSQL needs SIGINT/SIGTERM to shut down) nor the parent's descriptors.
void reset_child_state() {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2}) {
        signal(sig, SIG_DFL);
    }
    close_range(3, ~0U, 0);
}

void write_stderr(const char* text) {
    const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

struct ProcessResult {
    int exit_code;  // -1 when killed by a signal
    std::string output;
    bool ok() const { return exit_code == 0; }
};

int wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// execv's argument vector: pointers into `args`, which must outlive it.
std::vector<char*> argv_of(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& arg : args)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    return argv;
}

// A close-on-exec pipe and a fork; `pid` is 0 in the child.
struct ForkWithPipe {
    pid_t pid;
    int fds[2];  // read end, write end
};

ForkWithPipe fork_with_pipe() {
    ForkWithPipe forked{};
    if (pipe2(forked.fds, O_CLOEXEC) != 0) {
        throw std::system_error(errno, std::generic_category(), "pipe");
    }
    forked.pid = fork();
    if (forked.pid < 0) {
        const int error = errno;
        close(forked.fds[0]);
        close(forked.fds[1]);
        throw std::system_error(error, std::generic_category(), "fork");
    }
    return forked;
}

// Runs a program (absolute path) with stdout and stderr captured. No shell and
// no sudo: the user switch happens between fork and exec.
ProcessResult run_process(const std::vector<std::string>& args, const RunAs& as) {
    std::vector<char*> argv = argv_of(args);
    const auto [pid, fds] = fork_with_pipe();
    if (pid == 0) {
        const int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, STDIN_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        reset_child_state();
        if (!drop_privileges(as)) {
            write_stderr("could not switch to the unprivileged user\n");
            _exit(126);
        }
        // The parent's working directory may be closed to the unprivileged user.
        if (chdir("/") != 0) _exit(126);
        execv(argv[0], argv.data());
        write_stderr("could not execute ");
        write_stderr(argv[0]);
        write_stderr("\n");
        _exit(127);
    }
    close(fds[1]);
    std::string output;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buffer, sizeof buffer);
        if (n > 0) {
            output.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    return ProcessResult{wait_for(pid), std::move(output)};
}

std::string last_lines(const std::string& text, std::size_t count) {
    std::size_t end = text.size();
    while (end > 0 && text[end - 1] == '\n')
        --end;
    std::size_t begin = end;
    for (std::size_t lines = 0; begin > 0; --begin) {
        if (text[begin - 1] == '\n' && ++lines == count) break;
    }
    return text.substr(begin, end - begin);
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

std::string log_tail(const fs::path& data_dir) {
    const std::string tail = last_lines(read_file(data_dir / kLogFile), 20);
    return tail.empty() ? "(" + (data_dir / kLogFile).string() + " is empty)" : tail;
}

bool has_server_binaries(const fs::path& dir) {
    for (const char* name : {"initdb", "pg_ctl", "postgres"}) {
        if (access((dir / name).c_str(), X_OK) != 0) return false;
    }
    return true;
}

std::string pg_config_bindir() {
    FILE* pipe = popen("pg_config --bindir 2>/dev/null", "r");
    if (pipe == nullptr) return {};
    std::string output;
    char buffer[512];
    while (fgets(buffer, sizeof buffer, pipe) != nullptr)
        output += buffer;
    pclose(pipe);
    while (!output.empty() && std::isspace(static_cast<unsigned char>(output.back()))) {
        output.pop_back();
    }
    return output;
}

// "15" or "9.6" as numbers, for picking the highest installed version.
std::vector<int> version_numbers(const std::string& text) {
    std::vector<int> numbers;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, '.')) {
        const bool digits = std::all_of(part.begin(), part.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        if (part.empty() || !digits) return {};
        numbers.push_back(std::atoi(part.c_str()));
    }
    return numbers;
}

// Candidate bin directories: pg_config's first, then /usr/lib/postgresql/*/bin, highest first.
std::vector<fs::path> candidate_bin_dirs() {
    std::vector<fs::path> found;
    if (const std::string dir = pg_config_bindir(); !dir.empty() && has_server_binaries(dir)) {
        found.emplace_back(dir);
    }
    std::vector<std::pair<std::vector<int>, fs::path>> versions;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const std::vector<int> version = version_numbers(entry.path().filename().string());
        const fs::path bin = entry.path() / "bin";
        if (!version.empty() && has_server_binaries(bin)) versions.emplace_back(version, bin);
    }
    std::sort(versions.begin(), versions.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [version, bin] : versions) {
        if (std::find(found.begin(), found.end(), bin) == found.end()) found.push_back(bin);
    }
    return found;
}

// The major version a bin dir runs ("15"), from `pg_ctl --version`.
std::string major_version_of(const fs::path& bin_dir) {
    const ProcessResult result = run_process({(bin_dir / "pg_ctl").string(), "--version"}, {});
    const std::size_t start = result.output.find(") ");
    if (start == std::string::npos) return {};
    std::size_t end = start + 2;
    while (end < result.output.size() &&
           std::isdigit(static_cast<unsigned char>(result.output[end]))) {
        ++end;
    }
    std::string major = result.output.substr(start + 2, end - start - 2);
    // 9.x releases count the second number as part of the major version.
    if (major == "9" && end + 1 < result.output.size() && result.output[end] == '.') {
        major += '.';
        major += result.output[end + 1];
    }
    return major;
}

// An existing cluster needs binaries of its own major version.
fs::path find_bin_dir(const std::optional<std::string>& cluster_version) {
    const std::vector<fs::path> candidates = candidate_bin_dirs();
    if (candidates.empty()) {
        throw failure(
            "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: neither "
            "`pg_config --bindir` nor /usr/lib/postgresql/*/bin has them. Install the "
            "PostgreSQL server (Debian: apt-get install postgresql) or set a database URL.");
    }
    if (!cluster_version) return candidates.front();
    std::string seen;
    for (const fs::path& dir : candidates) {
        const std::string major = major_version_of(dir);
        if (major == *cluster_version) return dir;
        seen += (seen.empty() ? "" : ", ") + major + " (" + dir.string() + ")";
    }
    throw failure("the data directory holds a PostgreSQL " + *cluster_version +
                  " cluster, but only these server versions are installed: " + seen +
                  ". Install PostgreSQL " + *cluster_version +
                  " or upgrade the cluster with pg_upgrade.");
}

RunAs user_from_passwd(const passwd* pw) {
    return RunAs{true, pw->pw_uid, pw->pw_gid, pw->pw_name};
}

// As root: the existing cluster's owner, else `postgres`, else `nobody`.
RunAs run_as_for(const fs::path& data_dir) {
    if (geteuid() != 0) return {};
    struct stat st {};
    if (stat(data_dir.c_str(), &st) == 0 && st.st_uid != 0) {
        if (const passwd* pw = getpwuid(st.st_uid)) return user_from_passwd(pw);
        return RunAs{true, st.st_uid, st.st_gid, "uid " + std::to_string(st.st_uid)};
    }
    for (const char* name : {"postgres", "nobody"}) {
        if (const passwd* pw = getpwnam(name)) return user_from_passwd(pw);
    }
    throw failure(
        "running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL "
        "as (PostgreSQL refuses to run as root). Create one, or run the server as another user.");
}

// The first directory on the way to `dir` that the user cannot enter, if any.
// Checked by the user itself, so ACLs and group membership count.
std::optional<fs::path> first_unreachable(const RunAs& as, const fs::path& dir) {
    std::vector<std::string> steps;
    fs::path walked;
    for (const fs::path& part : dir.parent_path()) {
        walked /= part;
        steps.push_back(walked.string());
    }
    std::vector<const char*> paths;
    for (const std::string& step : steps)
        paths.push_back(step.c_str());

    const pid_t pid = fork();
    if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
    if (pid == 0) {
        reset_child_state();
        if (!drop_privileges(as)) _exit(255);
        for (std::size_t i = 0; i < paths.size() && i < 250; ++i) {
            if (access(paths[i], X_OK) == 0) continue;
            // Missing directories are created later, open to everyone.
            _exit(errno == ENOENT ? 0 : static_cast<int>(i + 1));
        }
        _exit(0);
    }
    const int code = wait_for(pid);
    if (code == 0) return std::nullopt;
    if (code > 0 && code <= static_cast<int>(steps.size())) return fs::path(steps[code - 1]);
    return dir.parent_path();
}

void require_reachable(const RunAs& as, const fs::path& dir, const std::string& what) {
    if (!as.switch_user) return;
    if (const auto blocked = first_unreachable(as, dir)) {
        throw failure("the " + what + " " + dir.string() + " cannot be used: PostgreSQL refuses " +
                      "to run as root, so it runs as the user '" + as.name +
                      "', and that user cannot enter " + blocked->string() +
                      ". Choose a directory that user can reach, e.g. "
                      "/var/lib/foxgeese/pgdata (--data-dir / FOXGEESE_DATA_DIR).");
    }
}

void chown_to(const fs::path& path, const RunAs& as, bool recursive) {
    if (!as.switch_user) return;
    if (lchown(path.c_str(), as.uid, as.gid) != 0) {
        throw failure("could not hand " + path.string() + " to the user '" + as.name +
                      "': " + std::strerror(errno));
    }
    if (!recursive) return;
    for (const auto& entry : fs::recursive_directory_iterator(path)) {
        if (lchown(entry.path().c_str(), as.uid, as.gid) != 0) {
            throw failure("could not hand " + entry.path().string() + " to the user '" + as.name +
                          "': " + std::strerror(errno));
        }
    }
}

// pg_ctl passes paths through /bin/sh inside double quotes, and PostgreSQL
// splits unix_socket_directories at commas: refuse what would not survive.
void require_plain_path(const fs::path& path, const std::string& what) {
    for (const char c : path.string()) {
        if (c == '"' || c == '$' || c == '`' || c == '\\' || c == ',' ||
            static_cast<unsigned char>(c) < 0x20) {
            throw failure("the " + what + " " + path.string() +
                          " contains a character PostgreSQL's tools cannot pass on "
                          "(one of \" $ ` \\ , or a control character); choose another.");
        }
    }
}

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::optional<std::string> cluster_version(const fs::path& data_dir) {
    std::ifstream in(data_dir / "PG_VERSION");
    std::string version;
    if (!in || !std::getline(in, version)) return std::nullopt;
    return version;
}

// Creates the data dir (0700) and any missing parents (0755, so the
// unprivileged user can pass through them whatever the umask).
void make_data_dir(const fs::path& data_dir) {
    std::vector<fs::path> missing;
    for (fs::path p = data_dir; !p.empty() && !fs::exists(p); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.root_path()) break;
    }
    try {
        fs::create_directories(data_dir);
        for (const fs::path& p : missing) {
            fs::permissions(p, p == data_dir ? fs::perms::owner_all
                                             : fs::perms::owner_all | fs::perms::group_read |
                                                   fs::perms::group_exec | fs::perms::others_read |
                                                   fs::perms::others_exec);
        }
    } catch (const fs::filesystem_error& e) {
        throw failure("could not create the data directory " + data_dir.string() + ": " +
                      e.code().message());
    }
    if (!fs::is_directory(data_dir)) {
        throw failure("the data directory " + data_dir.string() + " is not a directory");
    }
}

struct PidFile {
    std::string socket_dir;
    int port = 0;
    std::string status;  // "ready", "starting", "stopping", or empty
};

// postmaster.pid: line 4 is the port, line 5 the first socket directory,
// line 8 the postmaster's status.
std::optional<PidFile> read_pid_file(const fs::path& data_dir) {
    std::ifstream in(data_dir / "postmaster.pid");
    std::vector<std::string> lines;
    for (std::string line; lines.size() < 8 && std::getline(in, line);)
        lines.push_back(line);
    if (lines.size() < 5) return std::nullopt;
    PidFile pid_file{lines[4], std::atoi(lines[3].c_str()), ""};
    if (lines.size() >= 8) {
        pid_file.status = lines[7];
        pid_file.status.erase(pid_file.status.find_last_not_of(' ') + 1);
    }
    return pid_file;
}

bool is_temp_socket_dir(const fs::path& dir) {
    return dir.parent_path() == "/tmp" && dir.filename().string().rfind(kTempSocketPrefix, 0) == 0;
}

bool is_running(const fs::path& bin_dir, const fs::path& data_dir, const RunAs& as) {
    return run_process({(bin_dir / "pg_ctl").string(), "status", "-D", data_dir.string()}, as).ok();
}

// Whether a cluster found running is on its way down: the watchdog of a
// server that just ended is stopping it (a restart right after a SIGKILL),
// or someone else is. Using it would fail moments later.
bool is_stopping(const fs::path& data_dir) {
    const std::optional<PidFile> pid_file = read_pid_file(data_dir);
    return pid_file && pid_file->status == "stopping";
}

// Waits for a stopping cluster to be gone; false if it still runs after the
// stop timeout.
bool wait_until_stopped(const fs::path& bin_dir, const fs::path& data_dir, const RunAs& as) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(kStopTimeoutSeconds);
    while (is_running(bin_dir, data_dir, as)) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
}

// pg_ctl stop -m fast, then -m immediate if the fast shutdown did not finish;
// with `discard` (a cluster about to be deleted) -m immediate at once, with
// no shutdown checkpoint.
void stop_running(const fs::path& bin_dir, const fs::path& data_dir, bool discard = false) {
    const RunAs as = run_as_for(data_dir);
    if (!is_running(bin_dir, data_dir, as)) return;
    const std::string pg_ctl = (bin_dir / "pg_ctl").string();
    const std::string timeout = std::to_string(kStopTimeoutSeconds);
    ProcessResult result = run_process({pg_ctl, "stop", "-D", data_dir.string(), "-m",
                                        discard ? "immediate" : "fast", "-w", "-t", timeout},
                                       as);
    if (!discard && !result.ok() && is_running(bin_dir, data_dir, as)) {
        spdlog::warn("PostgreSQL in {} did not stop in time; stopping it immediately",
                     data_dir.string());
        result = run_process(
            {pg_ctl, "stop", "-D", data_dir.string(), "-m", "immediate", "-w", "-t", timeout}, as);
    }
    if (!result.ok() && is_running(bin_dir, data_dir, as)) {
        throw failure("could not stop the cluster in " + data_dir.string() + ": " +
                      last_lines(result.output, 10));
    }
}

// A process that stops the cluster once this one has ended, however it
// ended (SIGKILL included): it waits for the end of a pipe whose other end
// only this process holds, which the kernel closes when the process goes,
// then runs `pg_ctl stop -m fast`. It runs in a session of its own, so a
// Ctrl-C to the terminal's process group leaves it to the server, which
// stops the cluster itself and then dismisses the watchdog.
struct Watchdog {
    pid_t pid = -1;
    int pipe = -1;  // the end this process holds
};

Watchdog start_watchdog(const fs::path& bin_dir, const fs::path& data_dir, const RunAs& as) {
    const std::vector<std::string> args = {(bin_dir / "pg_ctl").string(),
                                           "stop",
                                           "-D",
                                           data_dir.string(),
                                           "-m",
                                           "fast",
                                           "-w",
                                           "-t",
                                           std::to_string(kStopTimeoutSeconds)};
    std::vector<char*> argv = argv_of(args);
    const auto [pid, fds] = fork_with_pipe();
    if (pid == 0) {
        // The pipe's read end becomes stdin; every other descriptor goes.
        dup2(fds[0], STDIN_FILENO);
        const int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        reset_child_state();
        setsid();
        // Named for ps, which would otherwise show a second server.
        prctl(PR_SET_NAME, "pg-watchdog", 0, 0, 0);
        if (!drop_privileges(as) || chdir("/") != 0) _exit(126);
        char byte;
        while (read(STDIN_FILENO, &byte, 1) < 0 && errno == EINTR) {
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fds[0]);
    return Watchdog{pid, fds[1]};
}

// The cluster was stopped here: the watchdog has nothing left to do.
void dismiss_watchdog(pid_t pid, int pipe) {
    if (pid <= 0) return;
    kill(pid, SIGKILL);
    wait_for(pid);
    close(pipe);
}

void remove_socket_dir(const fs::path& dir) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) spdlog::warn("could not remove socket directory {}: {}", dir.string(), ec.message());
}

std::string initdb_locale() {
    // C.UTF-8 sorts like C but knows UTF-8 character classes; older systems lack it.
    if (locale_t probe = newlocale(LC_ALL_MASK, "C.UTF-8", nullptr)) {
        freelocale(probe);
        return "C.UTF-8";
    }
    return "C";
}

void run_initdb(const fs::path& bin_dir, const fs::path& data_dir, const RunAs& as) {
    spdlog::info("creating a PostgreSQL cluster in {}", data_dir.string());
    const ProcessResult result =
        run_process({(bin_dir / "initdb").string(), "-D", data_dir.string(), "-U", kSuperuser,
                     "--auth=trust", "-E", "UTF8", "--locale=" + initdb_locale()},
                    as);
    if (!result.ok()) {
        throw failure("initdb failed (exit code " + std::to_string(result.exit_code) + ") for " +
                      data_dir.string() + ":\n" + last_lines(result.output, 20));
    }
}

void run_pg_ctl_start(const fs::path& bin_dir, const fs::path& data_dir, const fs::path& socket_dir,
                      int port, const RunAs& as) {
    // No TCP at all; the socket is the only door and only its owner (and root) may use it.
    const std::vector<std::pair<std::string, std::string>> settings = {
        {"listen_addresses", ""},
        {"unix_socket_directories", socket_dir.string()},
        {"unix_socket_permissions", "0700"},
        {"port", std::to_string(port)},
        {"fsync", "on"},
        {"shared_buffers", "64MB"},
        {"max_connections", "200"},
    };
    std::string options;
    for (const auto& [name, value] : settings) {
        options += (options.empty() ? "-c " : " -c ") + shell_quote(name + "=" + value);
    }
    const ProcessResult result = run_process(
        {(bin_dir / "pg_ctl").string(), "start", "-w", "-t", std::to_string(kStartTimeoutSeconds),
         "-D", data_dir.string(), "-l", (data_dir / kLogFile).string(), "-o", options},
        as);
    if (!result.ok()) {
        // A start that timed out may still come up later: do not leave it behind.
        try {
            stop_running(bin_dir, data_dir);
        } catch (const std::exception&) {
        }
        throw failure("pg_ctl start failed for " + data_dir.string() + ":\n" +
                      last_lines(result.output, 5) + "\nlast lines of " +
                      (data_dir / kLogFile).string() + ":\n" + log_tail(data_dir));
    }
}

// The data dir when the socket path fits in sun_path, else a private /tmp directory.
fs::path make_socket_dir(const EmbeddedPostgresOptions& options, const fs::path& data_dir,
                         const RunAs& as, bool& made_temp) {
    made_temp = false;
    const std::string socket_name = "/.s.PGSQL." + std::to_string(options.port);
    if (!options.socket_dir.empty()) {
        const fs::path dir = fs::absolute(options.socket_dir).lexically_normal();
        if (dir.string().size() + socket_name.size() > kMaxSocketPath) {
            throw failure("the socket directory " + dir.string() + " is too long for a unix " +
                          "socket path (at most " +
                          std::to_string(kMaxSocketPath - socket_name.size()) + " bytes)");
        }
        if (!fs::exists(dir)) {
            fs::create_directories(dir);
            fs::permissions(dir, fs::perms::owner_all);
            chown_to(dir, as, false);
        }
        return dir;
    }
    if (data_dir.string().size() + socket_name.size() <= kMaxSocketPath) return data_dir;
    std::string pattern = std::string("/tmp/") + kTempSocketPrefix + "XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        throw failure("could not create a socket directory under /tmp: " +
                      std::string(std::strerror(errno)));
    }
    made_temp = true;
    chown_to(pattern, as, false);
    return pattern;
}

void create_database(const std::string& admin_url, const std::string& database) {
    pqxx::connection connection(admin_url);
    pqxx::nontransaction tx(connection);
    if (!tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", database).empty()) return;
    try {
        tx.exec0("CREATE DATABASE " + tx.quote_name(database));
        spdlog::info("created database {}", database);
    } catch (const pqxx::sql_error& e) {
        // Someone else created it in the meantime: fine.
        if (e.sqlstate() != "42P04") throw;
    }
}

}  // namespace

struct EmbeddedPostgres::Setup {
    fs::path bin_dir;
    fs::path data_dir;
    fs::path socket_dir;
    std::string database;
    int port;
    bool keep_running_on_destroy;
    bool owns_socket_dir;
};

EmbeddedPostgres::EmbeddedPostgres(const Setup& setup)
    : bin_dir_(setup.bin_dir.string()),
      data_dir_(setup.data_dir.string()),
      socket_dir_(setup.socket_dir.string()),
      database_(setup.database),
      port_(setup.port),
      keep_running_on_destroy_(setup.keep_running_on_destroy),
      owns_socket_dir_(setup.owns_socket_dir) {}

// The server that uses a data directory holds a POSIX record lock on
// DIR.lock for as long as it runs, so that a second server started on the
// same directory (run twice by mistake) is refused before it touches the
// first one's cluster. The kernel drops the lock when the process ends, even
// by SIGKILL, and the watchdog does not inherit it, so a restart after a kill
// never waits on it.
class EmbeddedPostgres::DataDirLock {
  public:
    explicit DataDirLock(const fs::path& data_dir) : path_(data_dir.string() + ".lock") {
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ < 0) {
            throw failure("cannot open " + path_ + ": " + std::strerror(errno));
        }
        struct flock lock {};
        lock.l_type = F_WRLCK;
        lock.l_whence = SEEK_SET;
        if (fcntl(fd_, F_SETLK, &lock) == 0) return;
        const int error = errno;
        struct flock holder {};
        holder.l_type = F_WRLCK;
        holder.l_whence = SEEK_SET;
        const bool known = fcntl(fd_, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK;
        ::close(fd_);
        if (error != EACCES && error != EAGAIN) {
            throw failure("cannot lock " + path_ + ": " + std::strerror(error));
        }
        throw failure("another foxgeese-server" +
                      (known ? " (process " + std::to_string(holder.l_pid) + ")" : std::string()) +
                      " is using the PostgreSQL in " + data_dir.string() +
                      ": stop it first, or give this one another --data-dir");
    }
    ~DataDirLock() { ::close(fd_); }
    DataDirLock(const DataDirLock&) = delete;
    DataDirLock& operator=(const DataDirLock&) = delete;

  private:
    std::string path_;
    int fd_ = -1;
};

std::unique_ptr<EmbeddedPostgres> EmbeddedPostgres::start(const EmbeddedPostgresOptions& options) {
    if (options.data_dir.empty()) throw failure("no data directory given");
    if (options.database.empty()) throw failure("no database name given");
    if (options.port < 1 || options.port > 65535) {
        throw failure("port " + std::to_string(options.port) + " is not in 1..65535");
    }
    const fs::path data_dir = fs::absolute(options.data_dir).lexically_normal();
    const fs::path clean_data_dir =
        data_dir.has_filename() ? data_dir : data_dir.parent_path();  // drop a trailing '/'
    require_plain_path(clean_data_dir, "data directory");

    // Checked before anything is created, so a refused directory leaves no trace.
    const RunAs as = run_as_for(clean_data_dir);
    require_reachable(as, clean_data_dir, "data directory");
    make_data_dir(clean_data_dir);
    auto lock = std::make_unique<DataDirLock>(clean_data_dir);
    const std::optional<std::string> version = cluster_version(clean_data_dir);
    const fs::path bin_dir = find_bin_dir(version);
    if (as.switch_user) {
        struct stat st {};
        if (stat(clean_data_dir.c_str(), &st) == 0 && st.st_uid != as.uid) {
            chown_to(clean_data_dir, as, version.has_value());
        }
    }

    Setup setup{bin_dir,      clean_data_dir,
                {},           options.database,
                options.port, options.keep_running_on_destroy,
                false};
    bool running = version && is_running(bin_dir, clean_data_dir, as);
    if (running && is_stopping(clean_data_dir)) {
        spdlog::info("PostgreSQL on {} is shutting down; waiting for it to stop",
                     clean_data_dir.string());
        if (!wait_until_stopped(bin_dir, clean_data_dir, as)) {
            throw failure(
                "the PostgreSQL server on " + clean_data_dir.string() +
                " has been shutting down for over " + std::to_string(kStopTimeoutSeconds) +
                " s; stop it with `pg_ctl stop -D " + clean_data_dir.string() + " -m immediate`");
        }
        running = false;
    }
    if (running) {
        // A server left running (kept on purpose, or its parent was killed): use it.
        const std::optional<PidFile> pid_file = read_pid_file(clean_data_dir);
        if (!pid_file || pid_file->socket_dir.empty()) {
            throw failure("a PostgreSQL server is running on " + clean_data_dir.string() +
                          " but it has no unix socket; stop it with `pg_ctl stop -D " +
                          clean_data_dir.string() + "`");
        }
        if (!options.socket_dir.empty() &&
            fs::path(pid_file->socket_dir) != fs::absolute(options.socket_dir).lexically_normal()) {
            throw failure("a PostgreSQL server is already running on " + clean_data_dir.string() +
                          " with its socket in " + pid_file->socket_dir + ", not in " +
                          options.socket_dir + "; stop it first");
        }
        spdlog::warn("PostgreSQL is already running on {}; using it", clean_data_dir.string());
        setup.socket_dir = pid_file->socket_dir;
        setup.port = pid_file->port;
        setup.owns_socket_dir = is_temp_socket_dir(setup.socket_dir);
    } else {
        if (!version) run_initdb(bin_dir, clean_data_dir, as);
        bool made_temp = false;
        setup.socket_dir = make_socket_dir(options, clean_data_dir, as, made_temp);
        setup.owns_socket_dir = made_temp;
        require_plain_path(setup.socket_dir, "socket directory");
        require_reachable(as, setup.socket_dir, "socket directory");
        spdlog::info("starting PostgreSQL from {} on {} (socket in {}{})", bin_dir.string(),
                     clean_data_dir.string(), setup.socket_dir.string(),
                     as.switch_user ? ", as user " + as.name : "");
        try {
            run_pg_ctl_start(bin_dir, clean_data_dir, setup.socket_dir, setup.port, as);
        } catch (...) {
            if (made_temp) remove_socket_dir(setup.socket_dir);
            throw;
        }
    }

    std::unique_ptr<EmbeddedPostgres> cluster(new EmbeddedPostgres(setup));
    cluster->lock_ = std::move(lock);
    if (!options.keep_running_on_destroy) {
        const Watchdog watchdog = start_watchdog(bin_dir, clean_data_dir, as);
        cluster->watchdog_pid_ = watchdog.pid;
        cluster->watchdog_pipe_ = watchdog.pipe;
    }
    try {
        create_database(cluster->url_for("postgres"), options.database);
    } catch (const std::exception& e) {
        try {
            cluster->stop();
        } catch (const std::exception&) {
        }
        throw failure("could not create the database " + options.database + ": " + e.what());
    }
    return cluster;
}

EmbeddedPostgres::~EmbeddedPostgres() {
    if (keep_running_on_destroy_ || !running_) return;
    try {
        stop();
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        // Not stopped here: the watchdog stops it when this process ends.
    }
}

std::string EmbeddedPostgres::url() const {
    return url_for(database_);
}

std::string EmbeddedPostgres::url_for(const std::string& database) const {
    return "postgresql:///" + percent_encode(database) + "?host=" + percent_encode(socket_dir_) +
           "&port=" + std::to_string(port_) + "&user=" + kSuperuser;
}

void EmbeddedPostgres::stop() {
    if (!running_) return;
    spdlog::info("stopping PostgreSQL on {}", data_dir_);
    stop_running(bin_dir_, data_dir_);
    running_ = false;
    dismiss_watchdog(watchdog_pid_, watchdog_pipe_);
    watchdog_pid_ = -1;
    if (owns_socket_dir_) remove_socket_dir(socket_dir_);
}

void EmbeddedPostgres::stop_cluster(const std::string& data_dir, bool discard) {
    const fs::path dir = fs::absolute(data_dir).lexically_normal();
    const std::optional<std::string> version = cluster_version(dir);
    if (!version) return;  // never initialised: nothing can be running
    const std::optional<PidFile> pid_file = read_pid_file(dir);
    stop_running(find_bin_dir(version), dir, discard);
    if (pid_file && is_temp_socket_dir(pid_file->socket_dir)) {
        remove_socket_dir(pid_file->socket_dir);
    }
}

std::string EmbeddedPostgres::default_data_dir() {
    if (geteuid() == 0) return "/var/lib/foxgeese/pgdata";
    fs::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && xdg[0] == '/') {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
        base = fs::path(home) / ".local/share";
    } else if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir[0] == '/') {
        base = fs::path(pw->pw_dir) / ".local/share";
    } else {
        base = fs::current_path();
    }
    return (base / "foxgeese/pgdata").string();
}

}  // namespace foxgeese::service
