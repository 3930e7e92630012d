#include "actors/message_types.hpp"

#include "actors/messages.hpp"

namespace svc::actors {

void add_message_types(caf::actor_system_config& cfg) {
  // Stored records of schema/ (and core's e-mail), as messages carry them.
  cfg.add_message_type<schema::team_record>("team_record_v1")
    .add_message_type<schema::balance_record>("balance_record_v1")
    .add_message_type<schema::api_key_record>("api_key_record_v1")
    .add_message_type<schema::lora_record>("lora_record_v1")
    .add_message_type<schema::job_record>("job_record_v1")
    .add_message_type<schema::credit_entry_record>("credit_entry_record_v1")
    .add_message_type<schema::webhook_endpoint_record>("webhook_endpoint_record_v1")
    .add_message_type<schema::event_record>("event_record_v1")
    .add_message_type<schema::delivery_task>("delivery_task_v1")
    .add_message_type<schema::file_record>("file_record_v1")
    .add_message_type<schema::correlation>("correlation_v1")
    .add_message_type<schema::bucket_limits>("bucket_limits_v1")
    .add_message_type<schema::render_share>("render_share_v1")
    .add_message_type<schema::engine_record>("engine_record_v1")
    .add_message_type<schema::bucket_class>("bucket_class_v1")
    .add_message_type<schema::scope>("scope_v1")
    .add_message_type<core::mail_message>("mail_message_v1")
    .add_message_type<persistence::write_batch>("write_batch_v1");
  // The payloads of payloads.hpp and webhook_transport.hpp.
  cfg.add_message_type<actor_status>("actor_status_v1")
    .add_message_type<engine_status>("engine_status_v2")
    .add_message_type<queue_place>("queue_place_v1")
    .add_message_type<actor_summary>("actor_summary_v1")
    .add_message_type<actor_filter>("actor_filter_v1")
    .add_message_type<rate_decision>("rate_decision_v1")
    .add_message_type<issued_key>("issued_key_v1")
    .add_message_type<new_team>("new_team_v1")
    .add_message_type<team_update>("team_update_v1")
    .add_message_type<bucket_overrides>("bucket_overrides_v1")
    .add_message_type<admission>("admission_v1")
    .add_message_type<admission_result>("admission_result_v1")
    .add_message_type<settlement>("settlement_v1")
    .add_message_type<job_admission>("job_admission_v1")
    .add_message_type<rendered_outputs>("rendered_outputs_v1")
    .add_message_type<endpoint_creation>("endpoint_creation_v1")
    .add_message_type<endpoint_created>("endpoint_created_v1")
    .add_message_type<endpoint_patch>("endpoint_patch_v1")
    .add_message_type<file_upload>("file_upload_v1")
    .add_message_type<recovery_status>("recovery_status_v1")
    .add_message_type<test_fire>("test_fire_v1")
    .add_message_type<webhook_answer>("webhook_answer_v1")
    .add_message_type<forwarded_request>("forwarded_request_v1")
    .add_message_type<forwarded_response>("forwarded_response_v2")
    .add_message_type<forwarded_call>("forwarded_call_v1")
    .add_message_type<forwarded_calls>("forwarded_calls_v1")
    .add_message_type<forwarded_answer>("forwarded_answer_v2")
    .add_message_type<forwarded_answers>("forwarded_answers_v2")
    .add_message_type<node_info>("node_info_v1")
    .add_message_type<shard_map>("shard_map_v1")
    .add_message_type<cluster_view>("cluster_view_v1")
    .add_message_type<peer_status>("peer_status_v1")
    .add_message_type<shard_move_status>("shard_move_status_v1")
    .add_message_type<cluster_status>("cluster_status_v1")
    .add_message_type<shard_row_v1>("shard_row_v1")
    .add_message_type<shard_rows_v1>("shard_rows_v1")
    .add_message_type<blob_piece_v1>("blob_piece_v1")
    .add_message_type<shard_digest_v1>("shard_digest_v1");
  // Actor handles that messages carry: answers of `resolve`, and takes relayed for the HTTP side.
  cfg.add_message_type<bucket_actor>("bucket_actor_v1")
    .add_message_type<ledger_actor>("ledger_actor_v1")
    .add_message_type<anonymous_bucket_actor>("anonymous_bucket_actor_v1")
    .add_message_type<node_actor>("node_actor_v1");
}

} // namespace svc::actors
