// The agent's messages as Sensu Go's corev2 protobuf types (field numbers and types as Sensu Go's), each field named by
// its JSON key in the agent's JSON, with how Go's JSON writes it: (omitempty) left out when empty, (skip) never written,
// (value) an object even when absent, (never_null) a list even when empty, (flatten) its fields written in the parent's,
// (uuid) the 16 bytes as UUID text. Messages the door never exchanges are left out.
export const COREV2_SCHEMA = `
syntax = "proto3";
package sensu.core.v2;

message ObjectMeta {
  string name = 1 [(omitempty) = true];
  string namespace = 2 [(omitempty) = true];
  map<string, string> labels = 3 [(omitempty) = true];
  map<string, string> annotations = 4 [(omitempty) = true];
  string created_by = 5 [(omitempty) = true];
}

message ResourceReference {
  string name = 1;
  string type = 2;
  string api_version = 3;
}

message Event {
  int64 timestamp = 1 [(omitempty) = true];
  Entity entity = 2 [(omitempty) = true];
  Check check = 3 [(omitempty) = true];
  Metrics metrics = 4 [(omitempty) = true];
  ObjectMeta metadata = 5 [(value) = true];
  bytes id = 6 [(uuid) = true];
  int64 sequence = 7;
  repeated ResourceReference pipelines = 8;
}

message Entity {
  string entity_class = 1;
  System system = 3 [(value) = true];
  repeated string subscriptions = 4;
  int64 last_seen = 5;
  bool deregister = 6;
  Deregistration deregistration = 7 [(value) = true];
  string user = 11 [(omitempty) = true];
  bytes extended_attributes = 12 [(skip) = true];
  repeated string redact = 13 [(omitempty) = true];
  ObjectMeta metadata = 14 [(value) = true];
  string sensu_agent_version = 15;
  repeated string keepalive_handlers = 16 [(omitempty) = true];
}

message System {
  string hostname = 1 [(omitempty) = true];
  string os = 2 [(omitempty) = true];
  string platform = 3 [(omitempty) = true];
  string platform_family = 4 [(omitempty) = true];
  string platform_version = 5 [(omitempty) = true];
  Network network = 6 [(value) = true];
  string arch = 7 [(omitempty) = true];
  int32 arm_version = 8 [(omitempty) = true];
  string libc_type = 9;
  string vm_system = 10;
  string vm_role = 11;
  string cloud_provider = 12;
  string float_type = 13 [(omitempty) = true];
  repeated Process processes = 14;
}

message Process { string name = 1; }
message Network { repeated NetworkInterface interfaces = 1; }

message NetworkInterface {
  string name = 1 [(omitempty) = true];
  string mac = 2 [(omitempty) = true];
  repeated string addresses = 3;
}

message Deregistration { string handler = 1 [(omitempty) = true]; }

message Metrics {
  repeated string handlers = 1;
  repeated MetricPoint points = 2;
}

message MetricPoint {
  string name = 1 [(omitempty) = true];
  double value = 2;
  int64 timestamp = 3;
  repeated MetricTag tags = 4;
}

message MetricTag {
  string name = 1 [(omitempty) = true];
  string value = 2 [(omitempty) = true];
}

message MetricThresholdRule {
  string min = 1;
  string max = 2;
  uint32 status = 3;
}

message MetricThresholdTag {
  string name = 1;
  string value = 2;
}

message MetricThreshold {
  string name = 1;
  repeated MetricThresholdTag tags = 2;
  repeated MetricThresholdRule thresholds = 3;
  uint32 null_status = 4;
}

message Secret {
  string name = 1 [(omitempty) = true];
  string secret = 2 [(omitempty) = true];
}

message TimeWindowWhen { TimeWindowDays days = 1 [(value) = true]; }

message TimeWindowDays {
  repeated TimeWindowTimeRange all = 1 [(omitempty) = true];
  repeated TimeWindowTimeRange sunday = 2 [(omitempty) = true];
  repeated TimeWindowTimeRange monday = 3 [(omitempty) = true];
  repeated TimeWindowTimeRange tuesday = 4 [(omitempty) = true];
  repeated TimeWindowTimeRange wednesday = 5 [(omitempty) = true];
  repeated TimeWindowTimeRange thursday = 6 [(omitempty) = true];
  repeated TimeWindowTimeRange friday = 7 [(omitempty) = true];
  repeated TimeWindowTimeRange saturday = 8 [(omitempty) = true];
}

message TimeWindowTimeRange {
  string begin = 1;
  string end = 2;
}

message TimeWindowRepeated {
  string begin = 1;
  string end = 2;
  repeated string repeat = 3;
}

message ProxyRequests {
  repeated string entity_attributes = 1;
  bool splay = 2;
  uint32 splay_coverage = 3;
}

message HookConfig {
  ObjectMeta metadata = 1 [(value) = true];
  string command = 2 [(omitempty) = true];
  uint32 timeout = 3;
  bool stdin = 4;
  repeated string runtime_assets = 5;
}

message Hook {
  HookConfig config = 1 [(flatten) = true];
  double duration = 2 [(omitempty) = true];
  int64 executed = 3;
  int64 issued = 4;
  string output = 5 [(omitempty) = true];
  int32 status = 6;
}

// Written in JSON as {"<type>": [hooks]}.
message HookList {
  repeated string hooks = 1;
  string type = 2;
}

message CheckHistory {
  uint32 status = 1;
  int64 executed = 2;
  bool flapping = 3 [(skip) = true];
}

message Check {
  string command = 1 [(omitempty) = true];
  repeated string handlers = 3 [(never_null) = true];
  uint32 high_flap_threshold = 4;
  uint32 interval = 5;
  uint32 low_flap_threshold = 6;
  bool publish = 9;
  repeated string runtime_assets = 10;
  repeated string subscriptions = 11 [(never_null) = true];
  string proxy_entity_name = 13;
  repeated HookList check_hooks = 14;
  bool stdin = 15;
  TimeWindowWhen subdue = 16;
  string cron = 17 [(omitempty) = true];
  int64 ttl = 18;
  uint32 timeout = 19;
  ProxyRequests proxy_requests = 20 [(omitempty) = true];
  bool round_robin = 21;
  double duration = 22 [(omitempty) = true];
  int64 executed = 23;
  repeated CheckHistory history = 24;
  int64 issued = 25;
  string output = 26;
  string state = 27 [(omitempty) = true];
  uint32 status = 28;
  uint32 total_state_change = 29;
  int64 last_ok = 30;
  int64 occurrences = 31;
  int64 occurrences_watermark = 32;
  repeated string silenced = 33 [(omitempty) = true];
  repeated Hook hooks = 34 [(omitempty) = true];
  string output_metric_format = 35;
  repeated string output_metric_handlers = 36;
  repeated string env_vars = 37;
  ObjectMeta metadata = 38 [(value) = true];
  int64 max_output_size = 39 [(omitempty) = true];
  bool discard_output = 40 [(omitempty) = true];
  repeated Secret secrets = 41;
  bool is_silenced = 42;
  repeated MetricTag output_metric_tags = 43 [(omitempty) = true];
  string scheduler = 44;
  string processed_by = 45 [(omitempty) = true];
  repeated ResourceReference pipelines = 46 [(never_null) = true];
  repeated MetricThreshold output_metric_thresholds = 47 [(omitempty) = true];
  repeated TimeWindowRepeated subdues = 48 [(omitempty) = true];
  bytes extended_attributes = 99 [(skip) = true];
}

message CheckConfig {
  string command = 1 [(omitempty) = true];
  repeated string handlers = 3 [(never_null) = true];
  uint32 high_flap_threshold = 4;
  uint32 interval = 5;
  uint32 low_flap_threshold = 6;
  bool publish = 9;
  repeated string runtime_assets = 10;
  repeated string subscriptions = 11 [(never_null) = true];
  bytes extended_attributes = 12 [(skip) = true];
  string proxy_entity_name = 13;
  repeated HookList check_hooks = 14;
  bool stdin = 15;
  TimeWindowWhen subdue = 16;
  string cron = 17 [(omitempty) = true];
  int64 ttl = 18;
  uint32 timeout = 19;
  ProxyRequests proxy_requests = 20 [(omitempty) = true];
  bool round_robin = 21;
  string output_metric_format = 22;
  repeated string output_metric_handlers = 23;
  repeated string env_vars = 24;
  ObjectMeta metadata = 26 [(value) = true];
  int64 max_output_size = 27 [(omitempty) = true];
  bool discard_output = 28 [(omitempty) = true];
  repeated Secret secrets = 29;
  repeated MetricTag output_metric_tags = 30 [(omitempty) = true];
  string scheduler = 31 [(skip) = true];
  repeated ResourceReference pipelines = 32 [(never_null) = true];
  repeated MetricThreshold output_metric_thresholds = 33 [(omitempty) = true];
  repeated TimeWindowRepeated subdues = 34 [(omitempty) = true];
}

message AssetBuild {
  string url = 2 [(omitempty) = true];
  string sha512 = 3 [(omitempty) = true];
  repeated string filters = 5;
  map<string, string> headers = 9;
}

message Asset {
  string url = 2 [(omitempty) = true];
  string sha512 = 3 [(omitempty) = true];
  repeated string filters = 5;
  repeated AssetBuild builds = 6;
  ObjectMeta metadata = 8 [(value) = true];
  map<string, string> headers = 9;
}

message AssetList { repeated Asset assets = 1; }

// core/v3's EntityConfig (sensu.core.v3): what entity_config frames carry.
message EntityConfig {
  ObjectMeta metadata = 1;
  string entity_class = 2;
  string user = 3 [(omitempty) = true];
  repeated string subscriptions = 4;
  bool deregister = 5;
  Deregistration deregistration = 6 [(value) = true];
  repeated string keepalive_handlers = 7 [(omitempty) = true];
  repeated string redact = 8 [(omitempty) = true];
}

message CheckRequest {
  CheckConfig config = 1 [(omitempty) = true];
  repeated Asset assets = 2 [(omitempty) = true];
  repeated HookConfig hooks = 3 [(omitempty) = true];
  int64 issued = 4;
  map<string, AssetList> hook_assets = 5;
  repeated string secrets = 6 [(omitempty) = true];
}
`;
