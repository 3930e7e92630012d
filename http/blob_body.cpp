#include "http/blob_body.hpp"

#include <algorithm>

namespace svc::http {

void blob_body::next(std::size_t max, std::function<void(std::optional<std::string>)> done) {
  // The offset moves on the caller's thread, which also asks `remaining()`.
  auto offset = next_;
  auto length = std::min<uint64_t>(max, end_ - next_);
  next_ += length;
  net::post(pool_, [file = file_, offset, length, done = std::move(done)] {
    auto piece = file->read(offset, length);
    // Short means the file shrank under us: the promised length cannot be kept.
    if (piece && piece->size() != length)
      piece.reset();
    done(std::move(piece));
  });
}

} // namespace svc::http
