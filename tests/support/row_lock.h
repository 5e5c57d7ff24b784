// Holds one game's row locked (SELECT ... FOR UPDATE in an open
// transaction) until released, so that a write touching that row waits:
// the group-commit tests use it to hold a commit of moves in flight while
// other moves queue behind it.
#pragma once

#include <memory>
#include <pqxx/pqxx>
#include <string>

namespace foxgeese::test {

class RowLock {
  public:
    RowLock(const std::string& url, const std::string& game_id)
        : connection_(url), tx_(std::make_unique<pqxx::work>(connection_)) {
        tx_->exec_params("SELECT 1 FROM games WHERE game_id = $1::uuid FOR UPDATE", game_id);
    }
    void release() {
        if (tx_) tx_->commit();
        tx_.reset();
    }

  private:
    pqxx::connection connection_;
    std::unique_ptr<pqxx::work> tx_;
};

}  // namespace foxgeese::test
