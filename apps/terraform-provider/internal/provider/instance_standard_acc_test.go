package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"basalt/terraform-provider-basalt/internal/acctest"
)

func standardConfig(p *acctest.Platform) string {
	return p.ProviderConfig() + fmt.Sprintf(`
resource "basalt_instance" "ha" {
  name          = "tfacc-standard"
  instance_type = "kv.standard.small"
  region        = "local"
  architecture  = "standard"
  replicas      = 1

  allowlist = [{ cidr = "%s/32" }]

  parameters = {
    fsync            = "always"
    replication_mode = "sync"
  }

  timeouts {
    create = "15m"
    delete = "10m"
  }
}

data "basalt_instance" "ha" {
  id = basalt_instance.ha.id
}
`, gatewayAddress)
}

// A primary with one replica: the nodes and both endpoints are in the state, a write through
// the primary endpoint can be read back through the read-only endpoint, import reads it all
// back, and the plan after the apply is empty.
func TestAccInstance_standard(t *testing.T) {
	p := accPlatform(t)
	t.Parallel()
	readonly := func(s *terraform.State) error {
		attrs := s.RootModule().Resources["basalt_instance.ha"].Primary.Attributes
		primary := acctest.Conn{URI: attrs["connection_uri"]}
		if err := acctest.WriteAndRead(primary, "tfacc:ha", "replicated"); err != nil {
			return err
		}
		replica := acctest.Conn{URI: strings.Replace(attrs["connection_uri"], attrs["host"]+":"+attrs["port"], attrs["readonly_host"]+":"+attrs["readonly_port"], 1)}
		// WAIT in sync mode is implied by the acknowledgement; the replica holds the key now.
		out, err := acctest.RedisCLI(replica, "GET tfacc:ha", "SET tfacc:ha x")
		if err != nil {
			return err
		}
		if !strings.Contains(out, "replicated") || !strings.Contains(out, "READONLY") {
			return fmt.Errorf("through the read-only endpoint: want the written value and READONLY for a write, got %q", out)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		CheckDestroy:             checkInstanceDestroyed(p),
		Steps: []resource.TestStep{
			{
				Config: standardConfig(p),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("basalt_instance.ha", "status", "running"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "architecture", "standard"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "replicas", "1"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "parameters.replication_mode", "sync"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "nodes.#", "2"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "nodes.0.role", "primary"),
					resource.TestCheckResourceAttr("basalt_instance.ha", "nodes.1.role", "replica"),
					resource.TestCheckResourceAttrSet("basalt_instance.ha", "readonly_host"),
					resource.TestCheckResourceAttrSet("basalt_instance.ha", "readonly_port"),
					resource.TestCheckResourceAttrPair("data.basalt_instance.ha", "readonly_host", "basalt_instance.ha", "readonly_host"),
					resource.TestCheckResourceAttr("data.basalt_instance.ha", "nodes.#", "2"),
					readonly,
				),
			},
			{
				ResourceName:      "basalt_instance.ha",
				ImportState:       true,
				ImportStateVerify: true,
				// lag_bytes and statuses are read live; the rest must match.
				ImportStateVerifyIgnore: []string{"password", "password_version", "connection_uri", "timeouts", "nodes"},
			},
		},
	})
}
