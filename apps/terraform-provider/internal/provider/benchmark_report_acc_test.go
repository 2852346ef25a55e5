package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"basalt/terraform-provider-basalt/internal/acctest"
)

// TestAccBenchmarkReport reads an instance type's latest report: an error for a type without
// one; the report published with Basalt (docs/benchmarks) before the platform made one; then the
// report the platform's pipeline made (asked for as an administrator, made by the real worker on
// a temporary instance, the canonical suite beside memcached), which replaces it.
func TestAccBenchmarkReport(t *testing.T) {
	p := accPlatform(t)
	const instanceType = "kv.standard.small"
	configOf := func(instanceType string) string {
		return p.ProviderConfig() + fmt.Sprintf(`
data "basalt_benchmark_report" "this" {
  instance_type = %q
}
`, instanceType)
	}
	config := configOf(instanceType)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{Config: configOf("kv.standard.xlarge"), ExpectError: regexp.MustCompile(`(?i)no published benchmark report`)},
			{Config: config, Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.basalt_benchmark_report.this", "suites.#", "4"),
				resource.TestCheckResourceAttr("data.basalt_benchmark_report.this", "published_at", "2026-11-27T03:10:53.097Z"),
			)},
		},
	})

	id := publishReport(t, p, instanceType, "canonical")
	const name = "data.basalt_benchmark_report.this"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(name, "id", id),
				resource.TestCheckResourceAttr(name, "suites.#", "1"),
				resource.TestCheckResourceAttr(name, "suites.0", "canonical"),
				resource.TestCheckResourceAttr(name, "peers.0.server", "memcached"),
				resource.TestCheckResourceAttrSet(name, "published_at"),
				resource.TestCheckResourceAttrSet(name, "engine_version"),
				resource.TestCheckTypeSetElemNestedAttrs(name, "scenarios.*", map[string]string{"suite": "canonical", "server": "basalt", "errors": "0"}),
				resource.TestCheckTypeSetElemNestedAttrs(name, "scenarios.*", map[string]string{"suite": "canonical", "server": "memcached"}),
				resource.TestMatchResourceAttr(name, "scenarios.0.qps", regexp.MustCompile(`^[1-9]`)),
				resource.TestMatchResourceAttr(name, "markdown", regexp.MustCompile(`(?s)^# .*`+regexp.QuoteMeta(instanceType)+`.*canonical`)),
			),
		}},
	})
}

// publishReport asks the API for a report of the type with these suites (the platform's key
// is an administrator's) and waits for the worker to finish it; it returns the report's id.
func publishReport(t *testing.T, p *acctest.Platform, instanceType string, suites ...string) string {
	t.Helper()
	call := func(method, path string, body any, out any) int {
		var payload bytes.Buffer
		if body != nil {
			_ = json.NewEncoder(&payload).Encode(body)
		}
		req, err := http.NewRequest(method, p.Endpoint+path, &payload)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+p.APIKey)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %d, unreadable answer: %v", method, path, res.StatusCode, err)
		}
		return res.StatusCode
	}
	var asked struct {
		Report struct {
			ID string `json:"id"`
		} `json:"report"`
	}
	if status := call(http.MethodPost, "/v1/instance-types/"+instanceType+"/benchmarks", map[string]any{"suites": suites}, &asked); status != http.StatusAccepted {
		t.Fatalf("POST report: %d", status)
	}
	deadline := time.Now().Add(15 * time.Minute)
	for {
		var got struct {
			Report struct {
				Status string `json:"status"`
			} `json:"report"`
		}
		call(http.MethodGet, "/v1/instance-types/"+instanceType+"/benchmarks/"+asked.Report.ID, nil, &got)
		switch got.Report.Status {
		case "succeeded":
			return asked.Report.ID
		case "failed", "cancelled":
			t.Fatalf("report %s %s (the worker's log is kept under the tfacc logs)", asked.Report.ID, got.Report.Status)
		}
		if time.Now().After(deadline) {
			t.Fatalf("report %s still %s after 15 minutes", asked.Report.ID, got.Report.Status)
		}
		time.Sleep(2 * time.Second)
	}
}
