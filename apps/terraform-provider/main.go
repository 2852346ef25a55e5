// terraform-provider-basalt: the Terraform provider for Basalt (source address basalt/basalt).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"basalt/terraform-provider-basalt/internal/provider"
)

// version is set by the build (-ldflags "-X main.version=...").
var version = "0.1.0"

// SourceAddress is what a configuration writes in required_providers.
const SourceAddress = "basalt/basalt"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run with support for debuggers such as delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		// The full address Terraform derives from the short source address.
		Address: tfaddr.MustParseProviderSource(SourceAddress).String(),
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
