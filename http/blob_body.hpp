#pragma once
// A response body read from an open blob (output downloads): one range of
// the file, handed to the session piece by piece, each piece read on the
// blob-read thread pool so a slow disk never stalls the asio thread.

#include <memory>

#include <boost/asio/thread_pool.hpp>

#include "http/transport.hpp"
#include "persistence/blob_store.hpp"

namespace svc::http {

class blob_body final : public body_stream, public std::enable_shared_from_this<blob_body> {
public:
  /// The `length` bytes of `file` from `offset`, read on `pool`.
  blob_body(std::shared_ptr<const persistence::blob_file> file, uint64_t offset, uint64_t length,
            net::thread_pool& pool)
    : file_{std::move(file)}, next_{offset}, end_{offset + length}, pool_{pool} {}

  uint64_t remaining() const override { return end_ - next_; }
  void next(std::size_t max, std::function<void(std::optional<std::string>)> done) override;

private:
  std::shared_ptr<const persistence::blob_file> file_;
  uint64_t next_; ///< offset of the next piece handed out
  uint64_t end_;
  net::thread_pool& pool_;
};

} // namespace svc::http
