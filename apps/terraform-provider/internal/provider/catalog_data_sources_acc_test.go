package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

func TestAccCatalogDataSources(t *testing.T) {
	p := accPlatform(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: p.ProviderConfig() + `
data "basalt_regions" "all" {}

data "basalt_instance_types" "local" {
  region = "local"
}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckTypeSetElemNestedAttrs("data.basalt_regions.all", "regions.*", map[string]string{"id": "local", "available": "true"}),
				resource.TestCheckTypeSetElemNestedAttrs("data.basalt_instance_types.local", "instance_types.*", map[string]string{"id": "kv.standard.small", "regions.0": "local"}),
			),
		}},
	})
}
