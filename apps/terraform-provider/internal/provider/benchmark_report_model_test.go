package provider

import (
	"encoding/json"
	"testing"

	"basalt/terraform-provider-basalt/internal/client"
)

// A report as the API serves it (InstanceTypeReportDto) becomes the data source's state: nulls
// stay null (no value size, no headline figure), every scenario keeps its suite.
func TestReportState(t *testing.T) {
	var report client.TypeReport
	answer := `{"id":"r1","instance_type":"kv.standard.small","status":"succeeded","suites":["memtier-standard","canonical"],
	  "engine_version":"0.1.0","peers":[{"server":"redis","version":"Redis 7.0.15"}],"environment":"a shared 2-core host",
	  "finished_at":"2026-11-24T01:00:00.000Z","headline":{"reads_per_sec":41000.5,"writes_per_sec":null,"p99_latency_ms":1.2,"peer_ratio":1.05},
	  "runs":[{"workload":"memtier-standard","scenarios":[{"position":1,"name":"read-only 128 B, ping-pong","server":"basalt","workload":"read-only",
	  "value_size":128,"connections":16,"pipeline":1,"requests":1000,"qps":41000.5,"avg_latency_ms":0.4,"p50_latency_ms":0.3,"p99_latency_ms":1.2,
	  "p999_latency_ms":null,"errors":0,"engine_version":"0.1.0","command_line":"basalt-bench ..."}]},
	  {"workload":"canonical","scenarios":[{"position":1,"name":"canonical","server":"memcached","workload":"canonical","value_size":null,
	  "connections":64,"pipeline":1,"requests":9,"qps":9,"avg_latency_ms":1,"p50_latency_ms":null,"p99_latency_ms":null,"p999_latency_ms":null,
	  "errors":0,"engine_version":"memcached 1.6","command_line":"basalt-bench --canonical"}]}]}`
	if err := json.Unmarshal([]byte(answer), &report); err != nil {
		t.Fatal(err)
	}
	state := reportState("kv.standard.small", &report, "# report")
	if state.ID.ValueString() != "r1" || state.PublishedAt.ValueString() != "2026-11-24T01:00:00.000Z" || state.Markdown.ValueString() != "# report" {
		t.Fatalf("report fields: %+v", state)
	}
	if state.ReadsPerSec.ValueFloat64() != 41000.5 || !state.WritesPerSec.IsNull() || state.PeerRatio.ValueFloat64() != 1.05 {
		t.Errorf("headline: reads %v writes %v ratio %v", state.ReadsPerSec, state.WritesPerSec, state.PeerRatio)
	}
	if len(state.Suites) != 2 || len(state.Peers) != 1 || state.Peers[0].Version.ValueString() != "Redis 7.0.15" {
		t.Errorf("suites %v peers %v", state.Suites, state.Peers)
	}
	if len(state.Scenarios) != 2 {
		t.Fatalf("scenarios: %d", len(state.Scenarios))
	}
	first, second := state.Scenarios[0], state.Scenarios[1]
	if first.Suite.ValueString() != "memtier-standard" || first.ValueSize.ValueInt64() != 128 || !first.P999LatencyMs.IsNull() {
		t.Errorf("first scenario: %+v", first)
	}
	if second.Suite.ValueString() != "canonical" || second.Server.ValueString() != "memcached" || !second.ValueSize.IsNull() {
		t.Errorf("second scenario: %+v", second)
	}
}

// A report without a headline (none computed) leaves every headline figure null.
func TestReportStateWithoutHeadline(t *testing.T) {
	state := reportState("kv.standard.small", &client.TypeReport{ID: "r2"}, "")
	if !state.ReadsPerSec.IsNull() || !state.P99LatencyMs.IsNull() || !state.PublishedAt.IsNull() || len(state.Scenarios) != 0 {
		t.Errorf("state: %+v", state)
	}
}
