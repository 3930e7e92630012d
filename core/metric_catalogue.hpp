#pragma once
// Every metric Svc exports, registered once in one process-wide registry:
// the layers update the families here where things happen, and the admin
// listener's `/metrics` renders them. docs/metrics-and-logs.md's table lists each name.

#include "core/metrics.hpp"

namespace svc::core::metrics {

struct catalogue {
  registry all;

  // HTTP, by listener ("api" | "admin"), route template, method and status class.
  family<histogram>& http_request_seconds;
  family<counter>& http_response_bytes;
  family<counter>& rate_limited;
  family<gauge>& http_connections;

  // Jobs.
  family<counter>& jobs_created;
  family<counter>& jobs_settled;
  family<histogram>& render_seconds;
  family<counter>& backend_errors;

  // Engines (the local back end is `local`).
  family<gauge>& engine_slots;
  family<gauge>& engine_slots_busy;
  family<counter>& engine_renders;
  family<histogram>& engine_render_seconds;
  family<histogram>& queue_wait_seconds;

  // Credits.
  family<counter>& credits_held;
  family<counter>& credits_charged;
  family<counter>& credits_refunded;

  // Webhooks.
  family<counter>& webhook_attempts;
  family<histogram>& webhook_attempt_seconds;
  family<histogram>& webhook_delivery_latency;
  family<counter>& webhook_dead_letters;
  family<counter>& webhook_endpoints_disabled;
  family<gauge>& webhook_disabled_endpoints; ///< set by the endpoint directory, which knows every endpoint

  // The store.
  family<histogram>& store_commit_seconds;
  family<histogram>& store_commit_batches;

  // Mail.
  family<counter>& mail_sent;
  family<counter>& mail_failed;

  // A cluster: requests this node forwarded to the node holding their team.
  family<counter>& cluster_forwarded;
  family<histogram>& cluster_forward_seconds;

  // Gauges sampled when scraped (queues, the store, actors, the process).
  family<gauge>& jobs_queued;
  family<gauge>& renders_running;
  family<gauge>& uploads_in_flight;
  family<gauge>& webhook_retry_backlog;
  family<gauge>& mail_queued;
  family<gauge>& store_map_used_ratio;
  family<gauge>& store_map_bytes;
  family<gauge>& store_map_used_bytes;
  family<gauge>& store_map_reserve_bytes;
  family<gauge>& blob_bytes;
  family<gauge>& blobs;
  family<gauge>& actors;
  family<gauge>& actor_mailbox_depth;
  family<gauge>& uptime_seconds;
  family<gauge>& build_info;
  family<counter>& process_cpu_seconds;
  family<gauge>& process_resident_memory_bytes;
  family<gauge>& process_virtual_memory_bytes;
  family<gauge>& process_open_fds;
  family<gauge>& process_max_fds;
  family<gauge>& process_start_time_seconds;

  catalogue();
};

/// The process-wide catalogue (made on first use).
catalogue& svc();

/// A status code's class label: "2xx" ... "5xx".
std::string status_class(unsigned status);

} // namespace svc::core::metrics
