package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

var (
	_ datasource.DataSource              = &BenchmarkReportDataSource{}
	_ datasource.DataSourceWithConfigure = &BenchmarkReportDataSource{}
)

// BenchmarkReportDataSource is basalt_benchmark_report: an instance type's latest published
// benchmark report, as the API serves it (GET /v1/instance-types/{id}/benchmarks/latest).
type BenchmarkReportDataSource struct{ configurable }

// NewBenchmarkReportDataSource is the constructor the provider registers.
func NewBenchmarkReportDataSource() datasource.DataSource { return &BenchmarkReportDataSource{} }

// BenchmarkReportDataSourceModel is basalt_benchmark_report's state.
type BenchmarkReportDataSourceModel struct {
	InstanceType  types.String          `tfsdk:"instance_type"`
	ID            types.String          `tfsdk:"id"`
	PublishedAt   types.String          `tfsdk:"published_at"`
	EngineVersion types.String          `tfsdk:"engine_version"`
	Environment   types.String          `tfsdk:"environment"`
	Suites        []types.String        `tfsdk:"suites"`
	Peers         []reportPeerModel     `tfsdk:"peers"`
	ReadsPerSec   types.Float64         `tfsdk:"reads_per_sec"`
	WritesPerSec  types.Float64         `tfsdk:"writes_per_sec"`
	P99LatencyMs  types.Float64         `tfsdk:"p99_latency_ms"`
	PeerRatio     types.Float64         `tfsdk:"peer_ratio"`
	Scenarios     []reportScenarioModel `tfsdk:"scenarios"`
	Markdown      types.String          `tfsdk:"markdown"`
}

type reportPeerModel struct {
	Server  types.String `tfsdk:"server"`
	Version types.String `tfsdk:"version"`
}

type reportScenarioModel struct {
	Suite         types.String  `tfsdk:"suite"`
	Position      types.Int64   `tfsdk:"position"`
	Name          types.String  `tfsdk:"name"`
	Server        types.String  `tfsdk:"server"`
	Workload      types.String  `tfsdk:"workload"`
	ValueSize     types.Int64   `tfsdk:"value_size"`
	Connections   types.Int64   `tfsdk:"connections"`
	Pipeline      types.Int64   `tfsdk:"pipeline"`
	Requests      types.Int64   `tfsdk:"requests"`
	QPS           types.Float64 `tfsdk:"qps"`
	AvgLatencyMs  types.Float64 `tfsdk:"avg_latency_ms"`
	P50LatencyMs  types.Float64 `tfsdk:"p50_latency_ms"`
	P99LatencyMs  types.Float64 `tfsdk:"p99_latency_ms"`
	P999LatencyMs types.Float64 `tfsdk:"p999_latency_ms"`
	Errors        types.Int64   `tfsdk:"errors"`
	EngineVersion types.String  `tfsdk:"engine_version"`
	CommandLine   types.String  `tfsdk:"command_line"`
}

func (d *BenchmarkReportDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_benchmark_report"
}

func (d *BenchmarkReportDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	num := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{MarkdownDescription: desc, Computed: true}
	}
	integer := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The latest published benchmark report of an instance type: the standard suites (memtier_benchmark matrix, YCSB, " +
			"RethinkDB's canonical workload) measured by Basalt on a temporary instance of the type, each scenario beside its peer " +
			"(Redis or memcached from Debian) measured in the same run. Reading fails when the type has no published report yet.",
		Attributes: map[string]schema.Attribute{
			"instance_type":  schema.StringAttribute{MarkdownDescription: "Instance type ID (`kv.standard.small`).", Required: true},
			"id":             str("Report ID."),
			"published_at":   str("When the report was finished (RFC 3339); for the report published with Basalt (until one is made on the platform), when it was measured."),
			"engine_version": str("basalt-server version measured."),
			"environment":    str("Where the runs went: the host, its load, where the client, the instance and the peers ran."),
			"suites":         schema.ListAttribute{MarkdownDescription: "The suites in the report, in the order they ran.", ElementType: types.StringType, Computed: true},
			"peers": schema.ListNestedAttribute{
				MarkdownDescription: "The peers measured beside Basalt.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"server":  str("`redis` or `memcached`."),
					"version": str("Its version, as it reported it."),
				}},
			},
			"reads_per_sec":  num("memtier-standard read-only 128 B ping-pong on Basalt, operations per second (null when the report has no such scenario)."),
			"writes_per_sec": num("memtier-standard write-only 128 B ping-pong on Basalt, operations per second."),
			"p99_latency_ms": num("p99 latency of that read scenario, milliseconds."),
			"peer_ratio":     num("Median of Basalt/peer throughput over the scenarios with a peer figure."),
			"scenarios": schema.ListNestedAttribute{
				MarkdownDescription: "Every scenario measured, Basalt's and its peer's, in the order they ran.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"suite":           str("The suite it belongs to."),
					"position":        integer("Its place in the suite."),
					"name":            str("Scenario name (`read-only 128 B, ping-pong`)."),
					"server":          str("`basalt`, or the peer: `redis`, `memcached`."),
					"workload":        str("Workload (`read-only`, `write-only`, `mixed`, ...)."),
					"value_size":      integer("Value size in bytes; null when sizes vary."),
					"connections":     integer("Client connections."),
					"pipeline":        integer("Requests in flight per connection."),
					"requests":        integer("Requests sent."),
					"qps":             num("Operations per second."),
					"avg_latency_ms":  num("Average latency, milliseconds."),
					"p50_latency_ms":  num("Median latency, milliseconds."),
					"p99_latency_ms":  num("p99 latency, milliseconds."),
					"p999_latency_ms": num("p99.9 latency, milliseconds."),
					"errors":          integer("Failed requests."),
					"engine_version":  str("Version of the server measured."),
					"command_line":    str("The exact command that measured it (the password shown as `<password>`)."),
				}},
			},
			"markdown": str("The report rendered as a white paper (Markdown): environment, tool, parameters, results and conclusions computed from the numbers."),
		},
	}
}

func (d *BenchmarkReportDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state BenchmarkReportDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceType := state.InstanceType.ValueString()
	report, err := d.data.client.LatestTypeReport(ctx, instanceType)
	if client.IsNotFound(err) {
		resp.Diagnostics.AddError("No published benchmark report", fmt.Sprintf("Instance type %q has no published benchmark report yet (%s).", instanceType, err))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the benchmark report failed", err.Error())
		return
	}
	markdown, err := d.data.client.TypeReportMarkdown(ctx, instanceType, report.ID)
	if err != nil {
		resp.Diagnostics.AddError("Reading the benchmark report's markdown failed", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, reportState(instanceType, report, markdown))...)
}

// publishedAt is when a report made on the platform finished, or when a published one (committed
// with Basalt, loaded at the API's start) was measured: every report has a date.
func publishedAt(report *client.TypeReport) *string {
	if report.FinishedAt != nil {
		return report.FinishedAt
	}
	return report.MeasuredAt
}

// reportState is the data source's state for a report the API served.
func reportState(instanceType string, report *client.TypeReport, markdown string) *BenchmarkReportDataSourceModel {
	state := &BenchmarkReportDataSourceModel{
		InstanceType:  types.StringValue(instanceType),
		ID:            types.StringValue(report.ID),
		PublishedAt:   types.StringPointerValue(publishedAt(report)),
		EngineVersion: types.StringPointerValue(report.EngineVersion),
		Environment:   types.StringValue(report.Environment),
		Suites:        []types.String{},
		Peers:         []reportPeerModel{},
		ReadsPerSec:   types.Float64Null(),
		WritesPerSec:  types.Float64Null(),
		P99LatencyMs:  types.Float64Null(),
		PeerRatio:     types.Float64Null(),
		Scenarios:     []reportScenarioModel{},
		Markdown:      types.StringValue(markdown),
	}
	for _, suite := range report.Suites {
		state.Suites = append(state.Suites, types.StringValue(suite))
	}
	for _, peer := range report.Peers {
		state.Peers = append(state.Peers, reportPeerModel{Server: types.StringValue(peer.Server), Version: types.StringValue(peer.Version)})
	}
	if h := report.Headline; h != nil {
		state.ReadsPerSec = types.Float64PointerValue(h.ReadsPerSec)
		state.WritesPerSec = types.Float64PointerValue(h.WritesPerSec)
		state.P99LatencyMs = types.Float64PointerValue(h.P99LatencyMs)
		state.PeerRatio = types.Float64PointerValue(h.PeerRatio)
	}
	for _, run := range report.Runs {
		for _, s := range run.Scenarios {
			state.Scenarios = append(state.Scenarios, reportScenarioModel{
				Suite: types.StringValue(run.Workload), Position: types.Int64Value(s.Position), Name: types.StringValue(s.Name),
				Server: types.StringValue(s.Server), Workload: types.StringValue(s.Workload), ValueSize: types.Int64PointerValue(s.ValueSize),
				Connections: types.Int64Value(s.Connections), Pipeline: types.Int64Value(s.Pipeline), Requests: types.Int64Value(s.Requests),
				QPS: types.Float64Value(s.QPS), AvgLatencyMs: types.Float64Value(s.AvgLatencyMs), P50LatencyMs: types.Float64PointerValue(s.P50LatencyMs),
				P99LatencyMs: types.Float64PointerValue(s.P99LatencyMs), P999LatencyMs: types.Float64PointerValue(s.P999LatencyMs),
				Errors: types.Int64Value(s.Errors), EngineVersion: types.StringValue(s.EngineVersion), CommandLine: types.StringValue(s.CommandLine),
			})
		}
	}
	return state
}
