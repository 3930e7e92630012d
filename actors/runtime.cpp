#include "actors/runtime.hpp"

#include <algorithm>

#include "actors/anonymous_bucket.hpp"
#include "actors/bucket_directory.hpp"
#include "actors/expiry_sweeper.hpp"
#include "actors/file_writer.hpp"
#include "actors/job_directory.hpp"
#include "actors/keyring.hpp"
#include "actors/ledger_directory.hpp"
#include "actors/lora_catalogue.hpp"
#include "actors/mailer.hpp"
#include "actors/message_types.hpp"
#include "actors/registry.hpp"
#include "actors/shard_handover.hpp"
#include "actors/store.hpp"
#include "actors/supervisor.hpp"
#include "actors/team_directory.hpp"
#include "actors/endpoint_directory.hpp"
#include "actors/engine_registry.hpp"
#include "core/log.hpp"
#include "persistence/orphan_blobs.hpp"
#include "providers/backends.hpp"

namespace svc::actors {

void configure_actor_system(caf::actor_system_config& caf_cfg, const core::config& cfg) {
  // Work arrives from asio threads. Measured on 2 cores with GET /v1/team:
  // stealing cut context switches per request from ~0.9 to ~0.2 against
  // sharing (whose sleeping workers need a futex wake per message), for about
  // 0.4% of a core of polling when idle.
  caf_cfg.set("scheduler.policy", cfg.actor_policy == "stealing" ? caf::atom("stealing") : caf::atom("sharing"));
  caf_cfg.set("scheduler.max-threads", cfg.actor_threads);
  caf_cfg.set("logger.verbosity", caf::atom("quiet"));
  add_domain_error_category(caf_cfg);
  add_message_types(caf_cfg);
}

namespace {

// Before any actor runs, so no blob is being written: what a crash left
// without a record goes (persistence/orphan_blobs.hpp).
void remove_orphan_blobs(const persistence::tables& tables, persistence::file_blob_store& blobs) {
  auto swept = persistence::remove_orphan_blobs(tables, blobs, std::chrono::system_clock::now());
  if (swept.removed > 0 || swept.failed > 0)
    core::log_info("blobs", "removed " + std::to_string(swept.removed) + " orphan blobs (no record names them)"
                              + (swept.failed ? "; " + std::to_string(swept.failed) + " could not be removed" : ""));
  if (swept.unreadable > 0)
    core::log_warn("blobs", std::to_string(swept.unreadable)
                              + " blobs kept unchecked: the store failed to read their records");
}

} // namespace

runtime::runtime(caf::actor_system& sys, persistence::environment& env)
  : sys_{sys}, tables_{std::make_unique<persistence::tables>(env)} {}

std::unique_ptr<runtime> runtime::start(caf::actor_system& sys, const core::config& cfg,
                                        std::shared_ptr<const core::clock> clock, persistence::environment& env,
                                        runtime_links links, std::string& error) {
  std::unique_ptr<runtime> rt{new runtime{sys, env}};
  if (auto st = seed_builtin_loras(env, *rt->tables_, *clock); !st.ok()) {
    error = "seeding the LoRA catalogue: " + st.message;
    return nullptr;
  }
  auto generation = providers::make_generation(cfg, links.engine_callbacks, error);
  if (!generation)
    return nullptr;
  rt->backend_ = std::move(generation->backend);
  auto* fleet = generation->fleet;
  if (fleet) { // the operator's changes while it ran, before the pool's size follows the engines
    apply_stored_engines(*rt->tables_, *fleet);
    if (cfg.workers <= 0) {
      generation->workers = 0;
      for (auto& e : fleet->engines())
        generation->workers += providers::workers_per_engine_slot * e.slots;
    }
  }
  rt->models_ = std::move(generation->models);
  if (cfg.moderation_words.empty()) {
    rt->moderation_ = std::make_unique<providers::moderation_rules>(providers::moderation_rules::defaults());
  } else {
    auto loaded = providers::moderation_rules::load(cfg.moderation_words);
    if (auto* e = std::get_if<providers::moderation_list_error>(&loaded)) {
      error = "moderation words: " + e->message + (e->line ? " (line " + std::to_string(e->line) + ")" : "");
      return nullptr;
    }
    rt->moderation_ = std::make_unique<providers::moderation_rules>(std::get<providers::moderation_rules>(loaded));
  }
  auto blobs = std::make_unique<persistence::file_blob_store>(cfg.data_dir + "/blobs");
  remove_orphan_blobs(*rt->tables_, *blobs);
  auto held = blobs->usage(); // counted once; from here on every write goes through the tally
  rt->blobs_ = std::make_unique<persistence::counted_blob_store>(std::move(blobs), held);
  rt->pool_ = providers::make_worker_pool(generation->workers);
  // Every long-lived actor runs under a supervisor (see supervisor.hpp),
  // whose handle is the one handed out.
  auto& h = rt->handles_;
  h.registry = supervise<registry_actor>(sys, "registry", [](caf::actor_system& s) {
    return s.spawn(registry, std::chrono::milliseconds{1000});
  });
  h.store = supervise<store_actor>(sys, "store", [&env, &cfg, registry = h.registry](caf::actor_system& s) {
    auto incarnation = s.spawn<caf::detached>(store, &env, cfg.group_commit);
    caf::anon_send(registry, register_atom::value, std::string{"store"}, std::string{"store"}, std::string{},
                   incarnation.address());
    return incarnation;
  });
  rt->ctx_.cfg = &cfg;
  rt->ctx_.clock = std::move(clock);
  rt->ctx_.tables = rt->tables_.get();
  rt->ctx_.store = h.store;
  rt->ctx_.registry = h.registry;
  rt->ctx_.urls = std::make_shared<const public_urls>(std::move(links.urls));
  rt->ctx_.owns_team = std::move(links.owns_team);
  if (links.mail)
    h.mailer = supervise<mailer_actor>(sys, "mailer", [ctx = rt->ctx_, mail = links.mail, fallback = links.mail_fallback](caf::actor_system& s) {
      return s.spawn<caf::detached>(mailer, ctx, mail, fallback);
    });
  // Buckets publish no events; endpoints charge replays to them.
  h.buckets = supervise<bucket_directory_actor>(sys, "bucket_directory", [ctx = rt->ctx_](caf::actor_system& s) {
    return s.spawn(bucket_directory, ctx);
  });
  // Then the webhooks, so every actor spawned after them can publish events.
  endpoint_services hooks{links.webhooks, h.mailer, {}, h.buckets};
  h.webhooks = supervise<endpoint_directory_actor>(sys, "endpoint_directory",
                                                  [ctx = rt->ctx_, hooks](caf::actor_system& s) {
                                                    return s.spawn(endpoint_directory, ctx, hooks);
                                                  });
  rt->ctx_.webhooks = h.webhooks;
  auto& ctx = rt->ctx_;
  h.anonymous = supervise<anonymous_bucket_actor>(sys, "anonymous_bucket", [ctx](caf::actor_system& s) {
    return s.spawn(anonymous_bucket, ctx);
  });
  h.keyring = supervise<keyring_actor>(sys, "keyring", [ctx](caf::actor_system& s) { return s.spawn(keyring, ctx); });
  h.teams = supervise<team_directory_actor>(sys, "team_directory", [ctx, buckets = h.buckets](caf::actor_system& s) {
    return s.spawn(team_directory, ctx, buckets);
  });
  h.ledgers = supervise<ledger_directory_actor>(sys, "ledger_directory", [ctx](caf::actor_system& s) {
    return s.spawn(ledger_directory, ctx);
  });
  h.loras = supervise<lora_catalogue_actor>(sys, "lora_catalogue", [ctx](caf::actor_system& s) {
    return s.spawn(lora_catalogue, ctx);
  });
  h.expiries = supervise<expiry_sweeper_actor>(sys, "expiry_sweeper", [ctx, blobs = rt->blobs_.get()](caf::actor_system& s) {
    return s.spawn<caf::detached>(expiry_sweeper, ctx, blobs);
  });
  h.files = supervise<file_writer_actor>(sys, "file_writer", [ctx, blobs = rt->blobs_.get()](caf::actor_system& s) {
    return s.spawn<caf::detached>(file_writer, ctx, blobs);
  });
  job_services services{rt->backend_.get(), rt->pool_.get(), rt->blobs_.get(), rt->moderation_.get(), h.ledgers,
                        &rt->waiting_jobs_};
  h.jobs = supervise<job_directory_actor>(sys, "job_directory", [ctx, services](caf::actor_system& s) {
    return s.spawn(job_directory, ctx, services);
  });
  engine_registry_services fleet_services{fleet, rt->pool_.get(), h.jobs};
  h.engines = supervise<engine_registry_actor>(sys, "engine_registry", [ctx, fleet_services](caf::actor_system& s) {
    return s.spawn<caf::detached>(engine_registry, ctx, fleet_services);
  });
  handover_targets targets{h.jobs, h.webhooks, h.buckets, h.ledgers, h.keyring, h.store};
  h.handover = supervise<shard_handover_actor>(sys, "shard_handover", [ctx, targets](caf::actor_system& s) {
    return s.spawn(shard_handover, ctx, targets);
  });
  return rt;
}

void runtime::stop() {
  // Without a pool, `start` failed before spawning anything (a bad
  // --remote-url, an unreadable words file): there is nothing to stop.
  if (stopped_ || !pool_)
    return;
  stopped_ = true;
  {
    caf::scoped_actor self{sys_};
    self->request(handles_.buckets, std::chrono::seconds{10}, snapshot_atom::value)
      .receive([](bool ok) { core::log_info("runtime", ok ? "bucket levels saved" : "some bucket levels not saved"); },
               [](caf::error& err) { core::log_warn("runtime", "bucket snapshot failed: " + caf::to_string(err)); });
    // Running renders stop here; their jobs stay queued or processing in LMDB
    // and resume at the next start.
    pool_->shutdown();
    // Everyone but the store first, so their last writes still find it.
    std::vector<caf::actor> others{caf::actor_cast<caf::actor>(handles_.engines),
                                   caf::actor_cast<caf::actor>(handles_.handover),
                                   caf::actor_cast<caf::actor>(handles_.jobs),
                                   caf::actor_cast<caf::actor>(handles_.expiries),
                                   caf::actor_cast<caf::actor>(handles_.files),
                                   caf::actor_cast<caf::actor>(handles_.buckets),
                                   caf::actor_cast<caf::actor>(handles_.anonymous),
                                   caf::actor_cast<caf::actor>(handles_.keyring),
                                   caf::actor_cast<caf::actor>(handles_.teams),
                                   caf::actor_cast<caf::actor>(handles_.ledgers),
                                   caf::actor_cast<caf::actor>(handles_.loras),
                                   caf::actor_cast<caf::actor>(handles_.webhooks),
                                   caf::actor_cast<caf::actor>(handles_.mailer),
                                   caf::actor_cast<caf::actor>(handles_.registry)};
    // Without a mail sender (runtime_links::mail null) there is no mailer.
    others.erase(std::remove_if(others.begin(), others.end(), [](const caf::actor& a) { return !a; }), others.end());
    for (auto& a : others) {
      self->monitor(a);
      self->send_exit(a, caf::exit_reason::user_shutdown);
    }
    for (std::size_t i = 0; i < others.size(); ++i)
      self->receive([](caf::down_msg&) {}, caf::after(std::chrono::seconds{5}) >> [] {});
    self->send_exit(handles_.store, caf::exit_reason::user_shutdown);
  }
  handles_ = {};
  ctx_.store = nullptr;
  ctx_.registry = nullptr;
}

runtime::~runtime() { stop(); }

} // namespace svc::actors
