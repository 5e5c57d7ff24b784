// A private PostgreSQL cluster run from the system's PostgreSQL binaries: the
// server's database when no URL is configured, and the tests' throwaway
// cluster. It listens on a unix socket only (no TCP), trusts local connections
// and relies on the socket's 0700 permissions to keep other users out.
// Unless kept running on purpose, it never outlives the process that started
// (or adopted) it: a watchdog process stops it when this process ends,
// however it ends.
#pragma once

#include <memory>
#include <string>

namespace foxgeese::service {

struct EmbeddedPostgresOptions {
    // Created with initdb when it holds no PG_VERSION; reused otherwise. A
    // cluster found running on it (left by a process that was killed, or
    // kept) is used as it is; one found shutting down is waited for, then
    // started anew.
    std::string data_dir;
    // Empty: the data dir when the socket path fits, else a fresh directory under /tmp.
    std::string socket_dir;
    std::string database = "foxgeese";
    // Only names the socket file (.s.PGSQL.<port>); nothing listens on TCP.
    int port = 5432;
    // Leave the cluster running when this object goes and when this process
    // ends (the tests' throwaway cluster outlives the tool that starts it).
    bool keep_running_on_destroy = false;
};

class EmbeddedPostgres {
  public:
    // Initialises (if needed) and starts the cluster and creates the database.
    // Throws std::runtime_error with a message a person can act on.
    static std::unique_ptr<EmbeddedPostgres> start(const EmbeddedPostgresOptions& options);

    // Stops a cluster started earlier by any process; a stopped cluster is fine.
    // `discard`: the cluster is deleted next, so it is stopped at once, without
    // the shutdown checkpoint (which took 69 to 120 s after a full test run).
    static void stop_cluster(const std::string& data_dir, bool discard = false);

    // Where the server keeps its cluster by default: /var/lib/foxgeese/pgdata for
    // root, else $XDG_DATA_HOME (or ~/.local/share) + /foxgeese/pgdata.
    static std::string default_data_dir();

    ~EmbeddedPostgres();
    EmbeddedPostgres(const EmbeddedPostgres&) = delete;
    EmbeddedPostgres& operator=(const EmbeddedPostgres&) = delete;

    // libpq URL of the database over the unix socket.
    std::string url() const;
    // The same for another database of the cluster.
    std::string url_for(const std::string& database) const;

    const std::string& data_dir() const { return data_dir_; }
    const std::string& socket_dir() const { return socket_dir_; }
    const std::string& database() const { return database_; }
    int port() const { return port_; }
    bool running() const { return running_; }

    // pg_ctl stop -m fast, waiting for the shutdown. Does nothing when stopped.
    void stop();

  private:
    struct Setup;
    class DataDirLock;
    explicit EmbeddedPostgres(const Setup& setup);

    std::string bin_dir_;
    std::string data_dir_;
    std::string socket_dir_;
    std::string database_;
    int port_;
    bool keep_running_on_destroy_;
    // A socket directory made by mkdtemp: removed once the cluster stops.
    bool owns_socket_dir_;
    bool running_ = true;
    // The process that stops the cluster if this one ends first, and this
    // process's end of its pipe (-1: none, the cluster is kept running).
    int watchdog_pid_ = -1;
    int watchdog_pipe_ = -1;
    // Held while this process uses the data directory (see DataDirLock).
    std::unique_ptr<DataDirLock> lock_;
};

}  // namespace foxgeese::service
