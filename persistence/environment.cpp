#include "persistence/environment.hpp"

#include "core/log.hpp"
#include "persistence/lmdb_cursor.hpp"
#include "persistence/map_room.hpp"
#include "persistence/shard_keys.hpp"
#include "persistence/sharded_txn.hpp"
#include "persistence/store_upgrade.hpp"
#include "persistence/value_codec.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace svc::persistence {

std::string_view table_name(table t) {
  static constexpr std::array<std::string_view, table_count> names{
    "meta", "teams", "balances", "api_keys", "api_keys_by_team", "key_hashes", "loras", "lora_slugs", "buckets", "holds",
    "jobs", "jobs_by_team", "live_jobs", "idempotency", "usage", "expiries", "webhook_endpoints",
    "endpoints_by_team", "events", "events_by_team", "pending_events", "delivery_tasks", "deliveries",
    "delivered_events", "files", "files_by_team", "mail_queue", "credit_entries", "legacy_shards",
    "engines"};
  return names[static_cast<std::size_t>(t)];
}

namespace {

using lmdb::as_val;
using lmdb::as_view;

// A failed write as a status; out of room when the map or the disk is full.
status failure(const std::string& what, int rc) { return {lmdb::error(what.c_str(), rc), map_room::is_out_of_room(rc)}; }

// Pieces of work accepted and not finished, as `txn` sees them: live jobs,
// events not yet fanned out, webhook deliveries not yet done.
uint64_t open_work(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis) {
  uint64_t open = 0;
  for (auto t : {table::live_jobs, table::pending_events, table::delivery_tasks}) {
    MDB_stat st{};
    if (mdb_stat(txn, dbis[static_cast<std::size_t>(t)], &st) == MDB_SUCCESS)
      open += st.ms_entries;
  }
  return open;
}

constexpr const char* injected_read_failure = "reads failing (fault injection)";

// Reset read transactions kept for reuse: renewing one keeps its reader slot,
// so a read takes neither LMDB's reader-table mutex nor an allocation.
class reader_pool {
public:
  explicit reader_pool(MDB_env* env) : env_{env} {}
  ~reader_pool() {
    for (auto* txn : idle_)
      mdb_txn_abort(txn);
  }
  /// A reset transaction renewed, or a new one; nullptr with `rc` set when LMDB refuses.
  MDB_txn* acquire(int& rc) {
    MDB_txn* txn = nullptr;
    {
      std::lock_guard<std::mutex> guard{mutex_};
      if (!idle_.empty()) {
        txn = idle_.back();
        idle_.pop_back();
      }
    }
    if (txn && mdb_txn_renew(txn) == MDB_SUCCESS)
      return txn;
    if (txn)
      mdb_txn_abort(txn);
    rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
    return rc == MDB_SUCCESS ? txn : nullptr;
  }
  void release(MDB_txn* txn) {
    mdb_txn_reset(txn);
    std::lock_guard<std::mutex> guard{mutex_};
    if (idle_.size() < max_idle)
      idle_.push_back(txn);
    else
      mdb_txn_abort(txn);
  }

private:
  static constexpr std::size_t max_idle = 64;
  MDB_env* env_;
  std::mutex mutex_;
  std::vector<MDB_txn*> idle_;
};

// A read-only transaction for the span of one call.
struct read_txn {
  reader_pool& pool;
  int rc = MDB_SUCCESS;
  MDB_txn* txn;
  explicit read_txn(reader_pool& p) : pool{p}, txn{p.acquire(rc)} {}
  ~read_txn() {
    if (txn)
      pool.release(txn);
  }
};

} // namespace

struct environment::impl {
  MDB_env* env = nullptr;
  std::array<MDB_dbi, table_count> dbis{};
  std::unique_ptr<reader_pool> readers;
  std::atomic<bool> failing_reads{false}; ///< the fault switch (fail_reads)
  std::atomic<int64_t> commit_delay_ms{0}; ///< the fault switch (delay_commits)
  /// Whether `legacy_shards` may hold rows: only then do reads and writes consult it.
  std::atomic<bool> legacy_rows{false};
  /// `txn` with the keys callers use.
  sharded_txn in(MDB_txn* txn) const { return {txn, dbis, legacy_rows.load(std::memory_order_acquire)}; }
  int fd = -1; ///< the data file (LMDB's descriptor)
  uint64_t page_size = 0, map_pages = 0, reserve_pages = 0, disk_reserve_pages = 0;
  // The counts below change only in `commit` (one writer) and at open.
  uint64_t end_page = 0;               ///< last page number + 1, as of the last commit
  std::atomic<uint64_t> used_pages{0}; ///< as of the last commit; read by `usage` on any thread
  std::array<std::atomic<uint64_t>, table_count> writes{}; ///< commits that wrote each table (`writes_to`)

  // Recounts the pages after a commit (the freelist walk is short: LMDB
  // merges its records as it reuses them), and keeps the disk reserve
  // allocated past the data's end. On an error the last count stays; a disk
  // that cannot give the reserve now is asked again by the next growing write.
  void count_pages() {
    read_txn r{*readers};
    map_room::page_counts pages;
    if (!r.txn || map_room::count_pages(env, r.txn, pages) != MDB_SUCCESS)
      return;
    end_page = pages.end;
    used_pages.store(pages.used, std::memory_order_relaxed);
    (void) map_room::preallocate(fd, (end_page + disk_reserve_pages) * page_size);
  }
  ~impl() {
    readers.reset(); // its transactions must end before the environment closes
    if (env)
      mdb_env_close(env);
  }
};

namespace {

// The layout of the store's keys (`meta/format_version`), apart from the
// version byte of each value: 1 stored team-owned keys as they are; 2 stores
// each behind its team's shard (shard_keys.hpp).
constexpr char store_format = '2';

// Writes the format of a new store, upgrades a format-1 store, and refuses
// any other: a store written by a newer svcd is refused rather than misread.
// Empty, or why the store cannot be opened.
std::string settle_format(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis, const std::string& dir) {
  const std::string version_key = "format_version", version(1, store_format);
  MDB_val vk = as_val(version_key), vv{};
  auto meta = dbis[static_cast<std::size_t>(table::meta)];
  int rc = mdb_get(txn, meta, &vk, &vv);
  if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND)
    return lmdb::error("format version", rc);
  const std::string found = rc == MDB_SUCCESS ? std::string{as_view(vv)} : version;
  if (found == "1") {
    MDB_dbi scratch{};
    if (rc = mdb_dbi_open(txn, "upgrading", MDB_CREATE, &scratch); rc != MDB_SUCCESS)
      return lmdb::error("mdb_dbi_open upgrading", rc);
    upgrade_counts counts;
    if (auto why = upgrade_from_format_1(txn, dbis, scratch, counts); !why.empty())
      return "store " + dir + " could not be upgraded from format 1: " + why;
    core::log_info("persistence", "upgraded store " + dir + " from format 1 to 2: " + std::to_string(counts.rows)
                                    + " rows placed in their team's shard, " + std::to_string(counts.legacy_rows)
                                    + " of them by legacy_shards, " + std::to_string(counts.teamless_rows)
                                    + " without a team");
  } else if (found != version) {
    return "store " + dir + " has format version '" + found + "'; this svcd reads versions 1 and " + version;
  }
  if (found == version && rc == MDB_SUCCESS)
    return {};
  vv = as_val(version);
  rc = mdb_put(txn, meta, &vk, &vv, 0);
  return rc == MDB_SUCCESS ? std::string{} : lmdb::error("format version", rc);
}

} // namespace

environment::environment(std::unique_ptr<impl> p) : impl_{std::move(p)} {}

environment::~environment() = default;

std::unique_ptr<environment> environment::open(const std::string& dir, std::string& error, uint64_t map_size) {
  auto p = std::make_unique<impl>();
  int rc = mdb_env_create(&p->env);
  if (rc != MDB_SUCCESS) {
    error = lmdb::error("mdb_env_create", rc);
    return nullptr;
  }
  mdb_env_set_maxdbs(p->env, 32);
  rc = mdb_env_set_mapsize(p->env, static_cast<std::size_t>(map_size));
  if (rc != MDB_SUCCESS) {
    error = lmdb::error("mdb_env_set_mapsize", rc);
    return nullptr;
  }
  mdb_env_set_maxreaders(p->env, 512);
  // NOTLS: read transactions are short and may run on any asio or actor thread.
  rc = mdb_env_open(p->env, dir.c_str(), MDB_NOTLS, 0600);
  if (rc != MDB_SUCCESS) {
    error = lmdb::error(("mdb_env_open " + dir).c_str(), rc);
    return nullptr;
  }
  MDB_txn* txn = nullptr;
  rc = mdb_txn_begin(p->env, nullptr, 0, &txn);
  if (rc != MDB_SUCCESS) {
    error = lmdb::error("mdb_txn_begin", rc);
    return nullptr;
  }
  for (std::size_t i = 0; i < table_count; ++i) {
    std::string name{table_name(static_cast<table>(i))};
    rc = mdb_dbi_open(txn, name.c_str(), MDB_CREATE, &p->dbis[i]);
    if (rc != MDB_SUCCESS) {
      mdb_txn_abort(txn);
      error = lmdb::error(("mdb_dbi_open " + name).c_str(), rc);
      return nullptr;
    }
  }
  if (error = settle_format(txn, p->dbis, dir); !error.empty()) {
    mdb_txn_abort(txn);
    return nullptr;
  }
  MDB_stat legacy{};
  rc = mdb_stat(txn, p->dbis[static_cast<std::size_t>(table::legacy_shards)], &legacy);
  p->legacy_rows.store(rc == MDB_SUCCESS && legacy.ms_entries > 0);
  rc = mdb_txn_commit(txn);
  if (rc != MDB_SUCCESS) {
    error = lmdb::error("mdb_txn_commit", rc);
    return nullptr;
  }
  p->readers = std::make_unique<reader_pool>(p->env);
  // LMDB raises a map smaller than the data file to the file's size.
  MDB_envinfo info{};
  MDB_stat st{};
  mdb_env_info(p->env, &info);
  mdb_env_stat(p->env, &st);
  mdb_env_get_fd(p->env, &p->fd);
  p->page_size = st.ms_psize;
  p->map_pages = info.me_mapsize / st.ms_psize;
  p->reserve_pages = map_room::reserve_pages(p->map_pages, p->page_size);
  p->disk_reserve_pages = map_room::disk_reserve_pages(p->reserve_pages, p->page_size);
  p->count_pages();
  return std::unique_ptr<environment>{new environment{std::move(p)}};
}

namespace {

// The reads of one open transaction (environment::read).
class txn_snapshot final : public snapshot {
public:
  explicit txn_snapshot(const sharded_txn& txn) : txn_{txn} {}
  read_result<std::string> get(table t, std::string_view key) const override { return txn_.get(t, key); }
  status scan(table t, const scan_range& range, const scan_visitor& visit) const override {
    return txn_.scan(t, range, visit);
  }

private:
  const sharded_txn& txn_;
};

// The key `op` writes as stored: behind its shard in a team-owned table
// (the op's own shard when it names one: a moved row).
read_result<std::string> stored_key_of(const sharded_txn& keys, const write_op& op) {
  if (store_wide(op.tbl))
    return op.key;
  if (op.shard)
    return sharded_txn::stored_key(*op.shard, op.key);
  return keys.shard_for_write(op.tbl, op.key).map([&](core::shard_id shard) {
    return sharded_txn::stored_key(shard, op.key);
  });
}

} // namespace

read_result<std::string> environment::get(table t, std::string_view key) const {
  if (impl_->failing_reads.load(std::memory_order_relaxed))
    return read_result<std::string>::error(injected_read_failure);
  read_txn r{*impl_->readers};
  if (!r.txn)
    return read_result<std::string>::error(lmdb::error("mdb_txn_begin", r.rc));
  return impl_->in(r.txn).get(t, key);
}

status environment::scan(table t, const scan_range& range, const scan_visitor& visit) const {
  if (impl_->failing_reads.load(std::memory_order_relaxed))
    return {injected_read_failure};
  read_txn r{*impl_->readers};
  if (!r.txn)
    return {lmdb::error("mdb_txn_begin", r.rc)};
  return impl_->in(r.txn).scan(t, range, visit);
}

status environment::read(const std::function<status(const snapshot&)>& f) const {
  if (impl_->failing_reads.load(std::memory_order_relaxed))
    return {injected_read_failure};
  read_txn r{*impl_->readers};
  if (!r.txn)
    return {lmdb::error("mdb_txn_begin", r.rc)};
  auto txn = impl_->in(r.txn);
  return f(txn_snapshot{txn});
}

status environment::probe() const {
  auto version = get(table::meta, "format_version");
  return version.failed() ? status{version.why()} : status{};
}

void environment::fail_reads(bool on) { impl_->failing_reads.store(on, std::memory_order_relaxed); }

void environment::delay_commits(std::chrono::milliseconds delay) {
  impl_->commit_delay_ms.store(std::max<int64_t>(0, delay.count()), std::memory_order_relaxed);
}

status environment::commit(const write_batch& batch) {
  auto& p = *impl_;
  if (auto delay = p.commit_delay_ms.load(std::memory_order_relaxed); delay > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds{delay});
  MDB_txn* txn = nullptr;
  int rc = mdb_txn_begin(p.env, nullptr, 0, &txn);
  if (rc != MDB_SUCCESS)
    return failure("mdb_txn_begin", rc);
  const auto pages_before = map_room::tree_pages(txn, p.dbis.data(), p.dbis.size());
  // Set before the commit: a reader that sees a legacy row must look it up.
  for (auto& op : batch.ops)
    if (op.tbl == table::legacy_shards && op.value)
      p.legacy_rows.store(true, std::memory_order_release);
  auto keys = p.in(txn);
  for (auto& op : batch.ops) {
    auto dbi = impl_->dbis[static_cast<std::size_t>(op.tbl)];
    auto stored = stored_key_of(keys, op);
    if (stored.failed()) {
      mdb_txn_abort(txn);
      return {"write " + std::string{table_name(op.tbl)} + ": " + stored.why()};
    }
    MDB_val k = as_val(*stored);
    if (op.value) {
      MDB_val v = as_val(*op.value);
      rc = mdb_put(txn, dbi, &k, &v, 0);
    } else {
      rc = mdb_del(txn, dbi, &k, nullptr);
      if (rc == MDB_NOTFOUND)
        rc = MDB_SUCCESS;
    }
    if (rc != MDB_SUCCESS) {
      mdb_txn_abort(txn);
      return failure("write " + std::string{table_name(op.tbl)}, rc);
    }
  }
  // Only growth is refused: a batch that deletes or rewrites in place may
  // use the reserve, so the sweeper and retention can always make room. Work
  // already accepted may grow into half of it and into what new work leaves
  // pledged to it (as this batch leaves it, its own new job included), so it
  // ends where new work is refused (and retention can then free its rows).
  const auto pages_after = map_room::tree_pages(txn, p.dbis.data(), p.dbis.size());
  if (pages_after > pages_before) {
    const auto growth = pages_after - pages_before;
    const auto used = p.used_pages.load(std::memory_order_relaxed);
    const auto kept = batch.finishes_accepted_work
                        ? p.reserve_pages / 2
                        : p.reserve_pages + map_room::pledged_pages(open_work(txn, p.dbis), p.page_size);
    if (used + growth + kept > p.map_pages) {
      mdb_txn_abort(txn);
      return {"store full: the write needs " + std::to_string(growth) + " more pages, " + std::to_string(used)
                + " of " + std::to_string(p.map_pages) + " are used and " + std::to_string(kept)
                + (batch.finishes_accepted_work ? " are kept for deletes" : " are kept for deletes and accepted work"),
              true};
    }
    // The disk first: a full disk refuses here, before LMDB writes a page.
    if (int err = map_room::preallocate(p.fd, (p.end_page + growth + p.disk_reserve_pages) * p.page_size)) {
      mdb_txn_abort(txn);
      return {std::string{"growing the data file: "} + std::strerror(err), map_room::is_out_of_room(err)};
    }
  }
  // Without MDB_NOSYNC the commit returns after fsync: durable before acknowledged.
  rc = mdb_txn_commit(txn);
  if (rc != MDB_SUCCESS)
    return failure("mdb_txn_commit", rc);
  // After the commit: a reader that sees the new count reads the new records.
  std::array<bool, table_count> written{};
  for (auto& op : batch.ops)
    written[static_cast<std::size_t>(op.tbl)] = true;
  for (std::size_t i = 0; i < table_count; ++i)
    if (written[i])
      p.writes[i].fetch_add(1);
  p.count_pages();
  return {};
}

storage_use environment::usage() const {
  auto& p = *impl_;
  return {p.used_pages.load(std::memory_order_relaxed) * p.page_size, p.map_pages * p.page_size,
          p.reserve_pages * p.page_size};
}

status environment::backup(const std::string& dir) const {
  // A backup holds every key hash and webhook secret: only its owner may read it.
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    if (::mkdir(dir.c_str(), 0700) != 0)
      return {"cannot create " + dir + ": " + std::strerror(errno)};
  } else if (!S_ISDIR(st.st_mode)) {
    return {dir + " is not a directory"};
  } else if ((st.st_mode & 077) != 0) {
    return {dir + " is open to group or others; back up into a new path or a directory of mode 0700"};
  } else if (st.st_uid != ::geteuid()) {
    // Its owner could read the copy whatever its mode.
    return {dir + " belongs to another user; back up into a new path or a directory of your own"};
  }
  const auto path = dir + "/data.mdb";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return {"cannot create " + path + ": " + std::strerror(errno)};
  int rc = mdb_env_copyfd2(impl_->env, fd, MDB_CP_COMPACT);
  const bool synced = rc == MDB_SUCCESS && ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) {
    ::unlink(path.c_str());
    return {rc != MDB_SUCCESS ? lmdb::error(("mdb_env_copyfd2 " + path).c_str(), rc) : "fsync " + path + " failed"};
  }
  return {};
}

uint64_t environment::writes_to(table t) const { return impl_->writes[static_cast<std::size_t>(t)].load(); }

std::size_t environment::count(table t) const {
  read_txn r{*impl_->readers};
  MDB_stat st{};
  if (!r.txn || mdb_stat(r.txn, impl_->dbis[static_cast<std::size_t>(t)], &st) != MDB_SUCCESS)
    return 0;
  return st.ms_entries;
}

} // namespace svc::persistence
