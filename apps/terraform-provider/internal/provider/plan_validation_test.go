package provider_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// An address that answers nothing: these configurations must fail at validation, before the
// provider would talk to any API.
const offlineProvider = `
provider "basalt" {
  endpoint = "http://127.0.0.1:9"
  api_key  = "unused"
  project  = "00000000-0000-4000-8000-000000000000"
}
`

// Plan-time validation through the real Terraform, with no server: mistakes fail the plan
// with a message that says what to write instead.
func TestPlanValidation(t *testing.T) {
	requireTerraform(t)
	cases := []struct {
		name   string
		config string
		error  string
	}{
		{"host bits set", `allowlist = [{ cidr = "10.0.0.1/8" }]`, `has host bits set; the network is 10.0.0.0/8`},
		{"not a CIDR", `allowlist = [{ cidr = "office" }]`, `"office" is not an IPv4/IPv6 address or CIDR`},
		{"same network twice", `allowlist = [{ cidr = "10.0.0.1" }, { cidr = "10.0.0.1/32" }]`, `are the same network \(10\.0\.0\.1/32\)`},
		{"bad password", `password = "short"`, `must be 12-128 printable ASCII`},
		{"bad parameter", `parameters = { fsync = "sometimes" }`, `value must be one of`},
		{"replicas of a standalone instance", `replicas = 2`, `Replicas need architecture = "standard"`},
		{"replication mode of a standalone instance", `parameters = { replication_mode = "sync" }`, `replication_mode needs architecture`},
		{"too many replicas", "architecture = \"standard\"\n  replicas = 6", `value must be between 1 and 5`},
		{"unknown architecture", `architecture = "cluster"`, `value must be one of`},
		{"short backup window", `backup_window = "03:00-03:30"`, `must be at least 60 minutes long`},
		{"backup window not HH:MM", `backup_window = "3am-4am"`, `must be HH:MM-HH:MM`},
		{"retention too long", `backup_retention_days = 36`, `value must be between 0 and 35`},
		{"restore_from both", "restore_from {\n    backup_id = \"00000000-0000-4000-8000-000000000001\"\n    source_instance_id = \"00000000-0000-4000-8000-000000000002\"\n  }", `restore_from takes exactly one of`},
		{"restore_from empty", "restore_from {}", `restore_from takes exactly one of`},
		{"point in time to the millisecond", "restore_from {\n    source_instance_id = \"00000000-0000-4000-8000-000000000002\"\n    point_in_time = \"2026-12-01T10:15:30.250Z\"\n  }", `must be RFC 3339 to the second`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: providerFactories,
				Steps: []resource.TestStep{{
					Config: offlineProvider + `
resource "basalt_instance" "test" {
  name          = "validation"
  instance_type = "kv.standard.small"
  region        = "local"
  ` + c.config + `
}
`,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(c.error),
				}},
			})
		})
	}
}
