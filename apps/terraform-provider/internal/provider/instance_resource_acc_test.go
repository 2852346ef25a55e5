package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"basalt/terraform-provider-basalt/internal/acctest"
)

// The host reaches the local region's VMs from the bridge's gateway, so that address must be
// in every allowlist these tests write (written bare, to exercise normalisation).
const gatewayAddress = "10.77.0.1"

// lifecycleSettings are what the lifecycle test changes between its create and its update.
type lifecycleSettings struct {
	instanceType       string
	diskGib            string // "null": the type's minimum
	extraCIDR          string
	team               string
	passwordVersion    int
	fsync              string
	deletionProtection bool
	dataBrowserOff     bool
	permission         string
}

func instanceConfig(p *acctest.Platform, s lifecycleSettings) string {
	return p.ProviderConfig() + fmt.Sprintf(`
resource "basalt_instance" "test" {
  name                = "tfacc-lifecycle"
  instance_type       = %q
  region              = "local"
  disk_gib            = %s
  tls_enabled         = true
  password_version    = %d
  deletion_protection  = %t
  data_browser_enabled = %t

  allowlist = [
    { cidr = %q },
    { cidr = %q, description = "documentation range" },
  ]

  tags = {
    team = %q
  }

  parameters = {
    fsync = %q
  }

  timeouts {
    create = "10m"
    update = "10m"
    delete = "10m"
  }
}

resource "basalt_instance_user" "app" {
  instance_id = basalt_instance.test.id
  username    = "app"
  permission  = %q
  password    = "app-password-0001"
}

data "basalt_instance" "test" {
  id = basalt_instance.test.id
}
`, s.instanceType, s.diskGib, s.passwordVersion, s.deletionProtection, !s.dataBrowserOff, gatewayAddress, s.extraCIDR, s.team, s.fsync, s.permission)
}

// One instance goes through create, import, an in-place update of everything that changes in
// place (resize, disk, parameters, allowlist, tags, deletion protection, password rotation, a
// user's permission) and destroy; each
// real instance costs 30-60 s here, so the lifecycle shares one.
func TestAccInstance_lifecycle(t *testing.T) {
	p := accPlatform(t)
	t.Parallel() // beside the failing create, which has a platform of its own
	// connOf is a resource's connection URI with the instance's CA (the endpoint is TLS).
	connOf := func(s *terraform.State, name string) acctest.Conn {
		return acctest.Conn{
			URI: s.RootModule().Resources[name].Primary.Attributes["connection_uri"],
			CA:  s.RootModule().Resources["basalt_instance.test"].Primary.Attributes["ca_certificate"],
		}
	}
	var first acctest.Conn
	var firstID string
	remember := func(s *terraform.State) error {
		first, firstID = connOf(s, "basalt_instance.test"), s.RootModule().Resources["basalt_instance.test"].Primary.ID
		return nil
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		CheckDestroy:             checkInstanceDestroyed(p),
		Steps: []resource.TestStep{
			{
				Config: instanceConfig(p, lifecycleSettings{
					instanceType: "kv.standard.small", diskGib: "null", extraCIDR: "192.0.2.0/24", team: "web",
					passwordVersion: 1, fsync: "everysec", deletionProtection: true, permission: "read_write",
				}),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("basalt_instance.test", "status", "running"),
					resource.TestCheckResourceAttr("basalt_instance.test", "instance_type", "kv.standard.small"),
					resource.TestCheckResourceAttr("basalt_instance.test", "disk_gib", "10"),
					resource.TestCheckResourceAttr("basalt_instance.test", "parameters.fsync", "everysec"),
					resource.TestCheckResourceAttr("basalt_instance.test", "deletion_protection", "true"),
					resource.TestCheckResourceAttr("basalt_instance.test", "data_browser_enabled", "true"),
					resource.TestCheckResourceAttr("basalt_instance.test", "tls_enabled", "true"),
					resource.TestMatchResourceAttr("basalt_instance.test", "ca_certificate", regexp.MustCompile(`^-----BEGIN CERTIFICATE-----`)),
					resource.TestMatchResourceAttr("basalt_instance.test", "connection_uri", regexp.MustCompile(`^rediss://default:`)),
					resource.TestCheckResourceAttrSet("basalt_instance.test", "host"),
					resource.TestCheckResourceAttrSet("basalt_instance.test", "port"),
					resource.TestCheckResourceAttrSet("basalt_instance.test", "disk_gib"),
					resource.TestCheckResourceAttr("basalt_instance.test", "allowlist.#", "2"),
					resource.TestCheckTypeSetElemNestedAttrs("basalt_instance.test", "allowlist.*", map[string]string{"cidr": gatewayAddress, "description": ""}),
					resource.TestCheckResourceAttr("basalt_instance.test", "tags.team", "web"),
					resource.TestCheckResourceAttr("data.basalt_instance.test", "status", "running"),
					resource.TestCheckTypeSetElemNestedAttrs("data.basalt_instance.test", "allowlist.*", map[string]string{"cidr": gatewayAddress + "/32"}),
					resource.TestCheckResourceAttrPair("data.basalt_instance.test", "host", "basalt_instance.test", "host"),
					remember,
					func(s *terraform.State) error {
						return acctest.WriteAndRead(connOf(s, "basalt_instance.test"), "tfacc:default", "one")
					},
					func(s *terraform.State) error {
						return acctest.WriteAndRead(connOf(s, "basalt_instance_user.app"), "tfacc:app", "two")
					},
				),
			},
			{
				// The configuration wrote the gateway bare; import can only know the API's
				// canonical form, so the allowlist is compared as networks.
				ResourceName:            "basalt_instance.test",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password", "password_version", "connection_uri", "timeouts", "allowlist."},
				ImportStateCheck:        importedAllowlist(gatewayAddress+"/32", "192.0.2.0/24"),
			},
			{
				ResourceName:            "basalt_instance_user.app",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password", "password_version", "connection_uri", "timeouts"},
			},
			{
				// Resize with a larger disk and another fsync (one modify operation), another
				// network, new tags, deletion protection off, a rotated password, a narrower user:
				// all in place (the same id), and plugin-testing's plan after the apply must be empty.
				Config: instanceConfig(p, lifecycleSettings{
					instanceType: "kv.standard.large", diskGib: "20", extraCIDR: "198.51.100.7", team: "payments",
					passwordVersion: 2, fsync: "always", deletionProtection: false, dataBrowserOff: true, permission: "read_only",
				}),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("basalt_instance.test", "disk_gib", "20"),
					resource.TestCheckResourceAttr("basalt_instance.test", "parameters.fsync", "always"),
					resource.TestCheckResourceAttr("basalt_instance.test", "deletion_protection", "false"),
					resource.TestCheckResourceAttr("basalt_instance.test", "data_browser_enabled", "false"),
					resource.TestCheckResourceAttr("data.basalt_instance.test", "disk_gib", "20"),
					func(s *terraform.State) error {
						if id := s.RootModule().Resources["basalt_instance.test"].Primary.ID; id != firstID {
							return fmt.Errorf("the instance was replaced (%s -> %s), not changed in place", firstID, id)
						}
						return nil
					},
					resource.TestCheckResourceAttr("basalt_instance.test", "status", "running"),
					resource.TestCheckResourceAttr("basalt_instance.test", "instance_type", "kv.standard.large"),
					resource.TestCheckResourceAttr("basalt_instance.test", "allowlist.#", "2"),
					resource.TestCheckTypeSetElemNestedAttrs("basalt_instance.test", "allowlist.*", map[string]string{"cidr": "198.51.100.7"}),
					resource.TestCheckResourceAttr("basalt_instance.test", "tags.team", "payments"),
					resource.TestCheckResourceAttr("basalt_instance_user.app", "permission", "read_only"),
					func(s *terraform.State) error {
						rotated := connOf(s, "basalt_instance.test")
						if rotated.URI == first.URI {
							return fmt.Errorf("password_version 1 -> 2 did not rotate the password")
						}
						// Two-password rotation: the new and the old password both work until the old is revoked.
						if err := acctest.WriteAndRead(rotated, "tfacc:new", "three"); err != nil {
							return fmt.Errorf("new password: %w", err)
						}
						if err := acctest.WriteAndRead(first, "tfacc:old", "four"); err != nil {
							return fmt.Errorf("old password before revoke: %w", err)
						}
						id := s.RootModule().Resources["basalt_instance.test"].Primary.ID
						change, err := p.Client.RevokeOldPassword(context.Background(), p.Project, id, "default")
						if err != nil {
							return err
						}
						if change.Operation != nil {
							if _, err := p.Client.WaitForOperation(context.Background(), change.Operation.ID, acctest.Wait); err != nil {
								return err
							}
						}
						if err := acctest.AuthFails(first); err != nil {
							return fmt.Errorf("old password after revoke: %w", err)
						}
						return acctest.WriteAndRead(rotated, "tfacc:new", "five")
					},
					func(s *terraform.State) error {
						out, err := acctest.RedisCLI(connOf(s, "basalt_instance_user.app"), "GET tfacc:app", "SET tfacc:app x")
						if err != nil {
							return fmt.Errorf("%v: %s", err, out)
						}
						if !regexp.MustCompile(`(?s)^OK\ntwo\n.*NOPERM`).MatchString(out) {
							return fmt.Errorf("a read_only user read and was refused the write? redis-cli answered %q", out)
						}
						return nil
					},
				),
			},
			{
				// The user deleted behind Terraform's back: the refresh gets a 404 and drops it
				// from the state, so the plan wants to create it again.
				PreConfig: func() {
					op, err := p.Client.DeleteInstanceUser(context.Background(), p.Project, firstID, "app")
					if err == nil && op != nil {
						_, err = p.Client.WaitForOperation(context.Background(), op.ID, acctest.Wait)
					}
					if err != nil {
						t.Fatalf("deleting user app through the API: %v", err)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					if _, ok := s.RootModule().Resources["basalt_instance_user.app"]; ok {
						return fmt.Errorf("basalt_instance_user.app is still in the state after the API said 404")
					}
					return nil
				},
			},
		},
	})
}

// A create that fails on the worker fails the apply with the operation's step and output
// tail in the error; the instance is kept tainted in the state, so destroy deletes it.
func TestAccInstance_failedCreate(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	p, err := acctest.Start(acctest.Options{BrokenVMImage: true})
	if err != nil {
		t.Fatalf("starting the Basalt platform: %v", err)
	}
	defer p.Stop()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		CheckDestroy:             checkInstanceDestroyed(p),
		Steps: []resource.TestStep{
			{
				Config: p.ProviderConfig() + `
resource "basalt_instance" "broken" {
  name          = "tfacc-broken"
  instance_type = "kv.standard.small"
  region        = "local"
}
`,
				// Terraform wraps diagnostics at 80 columns.
				ExpectError: regexp.MustCompile(`(?s)failed at step\s+terraform_apply.*Output tail:.*no\s+VM\s+image\s+at`),
			},
		},
	})
}

// importedAllowlist checks that the imported instance's allowlist holds exactly these networks.
func importedAllowlist(want ...string) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("imported %d resources, want 1", len(states))
		}
		attrs := states[0].Attributes
		if attrs["allowlist.#"] != fmt.Sprint(len(want)) {
			return fmt.Errorf("imported allowlist has %s entries, want %d", attrs["allowlist.#"], len(want))
		}
		got := map[string]bool{}
		for i := range len(want) {
			got[attrs[fmt.Sprintf("allowlist.%d.cidr", i)]] = true
		}
		for _, cidr := range want {
			if !got[cidr] {
				return fmt.Errorf("imported allowlist %v lacks %s", got, cidr)
			}
		}
		return nil
	}
}
