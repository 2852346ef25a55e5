package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Without project, the provider uses the key user's only project, and asks for one by name
// once the user has several.
func TestAccProvider_defaultProject(t *testing.T) {
	p := accPlatform(t)
	config := fmt.Sprintf(`
provider "basalt" {
  endpoint = %q
  api_key  = %q
}

data "basalt_regions" "all" {}
`, p.Endpoint, p.APIKey)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  resource.TestCheckResourceAttrSet("data.basalt_regions.all", "regions.0.id"),
			},
			{
				PreConfig: func() {
					if _, err := p.Client.CreateProject(context.Background(), "tfacc second project"); err != nil {
						t.Fatalf("creating a second project: %v", err)
					}
				},
				Config:      config,
				ExpectError: regexp.MustCompile(`belongs to 2 projects; set project`),
			},
			{
				// Saying which one works again (and gives the test's destroy a configured provider).
				Config: p.ProviderConfig() + `
data "basalt_regions" "all" {}
`,
				Check: resource.TestCheckResourceAttrSet("data.basalt_regions.all", "regions.0.id"),
			},
		},
	})
}
