package client

import (
	"context"
	"net/http"
	"net/url"
)

// TypeReport is InstanceTypeReportDto: an instance type's benchmark report (the standard
// suites on a temporary instance of the type, each scenario beside its peer).
type TypeReport struct {
	ID            string       `json:"id"`
	InstanceType  string       `json:"instance_type"`
	Status        string       `json:"status"`
	Suites        []string     `json:"suites"`
	EngineVersion *string      `json:"engine_version"`
	Peers         []ReportPeer `json:"peers"`
	Environment   string       `json:"environment"`
	FinishedAt    *string      `json:"finished_at"`
	// MeasuredAt is when its runs started: a published report (committed, loaded at the API's start) has no finish.
	MeasuredAt *string         `json:"measured_at"`
	Headline   *ReportHeadline `json:"headline"`
	Runs       []BenchmarkRun  `json:"runs"`
}

// ReportPeer is ReportPeerDto: a server measured beside Basalt in the same runs.
type ReportPeer struct {
	Server  string `json:"server"`
	Version string `json:"version"`
}

// ReportHeadline is ReportHeadlineDto: the figures computed from a report's rows.
type ReportHeadline struct {
	ReadsPerSec  *float64 `json:"reads_per_sec"`
	WritesPerSec *float64 `json:"writes_per_sec"`
	P99LatencyMs *float64 `json:"p99_latency_ms"`
	PeerRatio    *float64 `json:"peer_ratio"`
}

// BenchmarkRun is the part of BenchmarkDto a report's reader needs: its suite and scenarios.
type BenchmarkRun struct {
	Workload  string              `json:"workload"`
	Scenarios []BenchmarkScenario `json:"scenarios"`
}

// BenchmarkScenario is BenchmarkScenarioDto without the tool's full JSON report.
type BenchmarkScenario struct {
	Position      int64    `json:"position"`
	Name          string   `json:"name"`
	Server        string   `json:"server"`
	Tool          string   `json:"tool"`
	CommandLine   string   `json:"command_line"`
	Workload      string   `json:"workload"`
	ValueSize     *int64   `json:"value_size"`
	Connections   int64    `json:"connections"`
	Pipeline      int64    `json:"pipeline"`
	Requests      int64    `json:"requests"`
	QPS           float64  `json:"qps"`
	AvgLatencyMs  float64  `json:"avg_latency_ms"`
	P50LatencyMs  *float64 `json:"p50_latency_ms"`
	P99LatencyMs  *float64 `json:"p99_latency_ms"`
	P999LatencyMs *float64 `json:"p999_latency_ms"`
	Errors        int64    `json:"errors"`
	EngineVersion string   `json:"engine_version"`
}

func reportsPath(instanceType string, segments ...string) string {
	p := "/v1/instance-types/" + url.PathEscape(instanceType) + "/benchmarks"
	for _, s := range segments {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// LatestTypeReport is the type's newest succeeded report; a 404 (IsNotFound) when it has none.
func (c *Client) LatestTypeReport(ctx context.Context, instanceType string) (*TypeReport, error) {
	var out struct {
		Report TypeReport `json:"report"`
	}
	if err := c.do(ctx, http.MethodGet, reportsPath(instanceType, "latest"), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out.Report, nil
}

// TypeReportMarkdown is a report rendered as a white paper.
func (c *Client) TypeReportMarkdown(ctx context.Context, instanceType, reportID string) (string, error) {
	return c.getText(ctx, reportsPath(instanceType, reportID, "report.md"), "text/markdown")
}
