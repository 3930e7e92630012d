#include "core/metric_catalogue.hpp"

namespace svc::core::metrics {
namespace {

// Seconds, from a fast API answer to a slow render or a timed-out webhook.
std::vector<double> latency_buckets() { return {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}; }
// Writers' batches per LMDB transaction (group commit); 1 without it.
std::vector<double> batch_buckets() { return {1, 2, 4, 8, 16, 32, 64, 128, 256}; }
// Seconds from an event to its delivery: one quick attempt, or retries over
// the default schedule (5 s, 30 s, 2 min, 10 min) and receivers down for hours.
std::vector<double> delivery_buckets() {
  return {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600, 1800, 3600, 21600, 86400};
}
std::vector<double> render_buckets() { return {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}; }

} // namespace

catalogue::catalogue()
  : http_request_seconds{all.add_histogram(
      "svc_http_request_duration_seconds",
      "Time from a request's head to its answer's head, by listener, route template, method and status class.",
      {"listener", "route", "method", "class"}, latency_buckets())},
    http_response_bytes{all.add_counter("svc_http_response_body_bytes_total", "Bytes of response bodies promised.",
                                        {"listener"})},
    rate_limited{all.add_counter("svc_rate_limited_total", "API requests answered 429.")},
    http_connections{all.add_gauge("svc_http_open_connections", "Open client connections.", {"listener"})},
    jobs_created{all.add_counter("svc_jobs_created_total", "Jobs admitted (credits held), by kind.", {"kind"})},
    jobs_settled{all.add_counter("svc_jobs_settled_total", "Jobs ended and settled, by kind and outcome (status).",
                                 {"kind", "outcome"})},
    render_seconds{all.add_histogram("svc_render_duration_seconds", "Time the back end took per render, by kind.",
                                     {"kind"}, render_buckets())},
    backend_errors{all.add_counter("svc_backend_errors_total", "Renders the back end failed, by error code.",
                                   {"code"})},
    engine_slots{all.add_gauge("svc_engine_slots", "Renders an engine runs at once, by engine.", {"engine"})},
    engine_slots_busy{all.add_gauge("svc_engine_slots_busy", "Slots of an engine a dispatched job holds, by engine.",
                                    {"engine"})},
    engine_renders{all.add_counter("svc_engine_renders_total",
                                   "Renders an engine ended, by engine and outcome (succeeded, or the error code).",
                                   {"engine", "outcome"})},
    engine_render_seconds{all.add_histogram("svc_engine_render_duration_seconds",
                                            "Time an engine took per render, by engine.", {"engine"},
                                            render_buckets())},
    queue_wait_seconds{all.add_histogram("svc_queue_wait_seconds",
                                         "Time a job waited in the fair queue until an engine took it, by its "
                                         "team's render weight.",
                                         {"weight"}, render_buckets())},
    credits_held{all.add_counter("svc_credits_held_total", "Credits put on hold by admitted jobs.")},
    credits_charged{all.add_counter("svc_credits_charged_total", "Held credits charged by succeeded jobs.")},
    credits_refunded{
      all.add_counter("svc_credits_refunded_total", "Held credits refunded by jobs that did not succeed.")},
    webhook_attempts{all.add_counter("svc_webhook_attempts_total",
                                     "Webhook delivery attempts, by outcome: the receiver's status class (2xx, 3xx, "
                                     "4xx, 5xx) or what kept it from answering (timeout, connect_refused, tls_error, "
                                     "connect_error).",
                                     {"outcome"})},
    webhook_attempt_seconds{all.add_histogram("svc_webhook_attempt_duration_seconds",
                                              "Time a webhook attempt took, whatever its outcome.", {},
                                              latency_buckets())},
    webhook_delivery_latency{all.add_histogram("svc_webhook_delivery_latency_seconds",
                                               "Time from an event's creation to its successful delivery to an "
                                               "endpoint, retries included.",
                                               {}, delivery_buckets())},
    webhook_dead_letters{all.add_counter("svc_webhook_dead_letters_total",
                                         "Deliveries given up after their last attempt.")},
    webhook_endpoints_disabled{all.add_counter("svc_webhook_endpoints_disabled_total",
                                               "Endpoints disabled after failing too long.")},
    webhook_disabled_endpoints{all.add_gauge("svc_webhook_disabled_endpoints",
                                             "Endpoints disabled now (by failing too long, their team or an "
                                             "operator).")},
    store_commit_seconds{all.add_histogram("svc_store_commit_duration_seconds",
                                           "Time an LMDB write transaction took to commit, fsync included.", {},
                                           latency_buckets())},
    store_commit_batches{all.add_histogram("svc_store_commit_batches",
                                           "Writers' batches committed per LMDB transaction (group commit).", {},
                                           batch_buckets())},
    mail_sent{all.add_counter("svc_mail_sent_total", "Mails the relay accepted.")},
    mail_failed{all.add_counter("svc_mail_failed_total", "Mail attempts that failed (each retry counts).")},
    cluster_forwarded{all.add_counter("svc_cluster_forwarded_total",
                                      "Requests forwarded to the node holding their team, by that node and outcome "
                                      "(answered, or failed: 503 owner_unavailable).",
                                      {"peer", "outcome"})},
    cluster_forward_seconds{all.add_histogram("svc_cluster_forward_duration_seconds",
                                              "Time from forwarding a request to the owner's answer, by owner.",
                                              {"peer"}, latency_buckets())},
    jobs_queued{all.add_gauge("svc_jobs_queued", "Renders waiting for a worker.")},
    renders_running{all.add_gauge("svc_renders_running", "Renders a worker is running.")},
    uploads_in_flight{all.add_gauge("svc_uploads_in_flight", "File uploads being received.")},
    webhook_retry_backlog{all.add_gauge("svc_webhook_retry_backlog",
                                        "Webhook deliveries with attempts still to make (due or waiting).")},
    mail_queued{all.add_gauge("svc_mail_queued", "Mails waiting in the queue to be sent or retried.")},
    store_map_used_ratio{all.add_gauge("svc_store_map_used_ratio",
                                       "Share of the LMDB map (--map-size) in use; writes that grow the store are "
                                       "refused past 1 - svc_store_map_reserve_bytes / svc_store_map_bytes.")},
    store_map_bytes{all.add_gauge("svc_store_map_bytes", "Size of the LMDB map.")},
    store_map_used_bytes{all.add_gauge("svc_store_map_used_bytes", "Bytes of the LMDB map in use.")},
    store_map_reserve_bytes{all.add_gauge("svc_store_map_reserve_bytes",
                                          "Part of the map kept for writes that do not grow the store.")},
    blob_bytes{all.add_gauge("svc_blob_bytes", "Bytes of the stored blobs (job outputs and uploaded files) on disk.")},
    blobs{all.add_gauge("svc_blobs", "Stored blobs (job outputs and uploaded files).")},
    actors{all.add_gauge("svc_actors", "Actors alive, by kind.", {"kind"})},
    actor_mailbox_depth{all.add_gauge("svc_actor_mailbox_messages", "Messages waiting in actor mailboxes, by kind.",
                                      {"kind"})},
    uptime_seconds{all.add_gauge("svc_uptime_seconds", "Seconds since start.")},
    build_info{all.add_gauge("svc_build_info", "Always 1; the labels name the build.", {"version", "commit"})},
    process_cpu_seconds{all.add_counter("process_cpu_seconds_total", "User and system CPU time spent in seconds.")},
    process_resident_memory_bytes{all.add_gauge("process_resident_memory_bytes", "Resident memory size in bytes.")},
    process_virtual_memory_bytes{all.add_gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.")},
    process_open_fds{all.add_gauge("process_open_fds", "Number of open file descriptors.")},
    process_max_fds{all.add_gauge("process_max_fds", "Maximum number of open file descriptors.")},
    process_start_time_seconds{all.add_gauge("process_start_time_seconds",
                                             "Start time of the process since unix epoch in seconds.")} {}

catalogue& svc() {
  static catalogue c;
  return c;
}

std::string status_class(unsigned status) { return std::to_string(status / 100) + "xx"; }

} // namespace svc::core::metrics
