// terraform-provider-basalt: the Terraform provider for Basalt (source address basalt/basalt).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"path"
	"runtime"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"basalt/terraform-provider-basalt/internal/provider"
)

// version is set by the build (-ldflags "-X main.version=...").
var version = "0.1.0"

// SourceAddress is what a configuration writes in required_providers.
const SourceAddress = "basalt/basalt"

func main() {
	var debug, mirrorPath bool
	flag.BoolVar(&debug, "debug", false, "run with support for debuggers such as delve")
	flag.BoolVar(&mirrorPath, "mirror-path", false, "print where this binary goes in a Terraform filesystem mirror (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/FILE) and exit")
	flag.Parse()

	// The full address Terraform derives from the short source address.
	address := tfaddr.MustParseProviderSource(SourceAddress).String()
	if mirrorPath {
		// The unpacked layout Terraform's filesystem_mirror reads; the bootstrap installs the
		// build there so `terraform init` finds basalt/basalt with no registry.
		fmt.Println(path.Join(address, version, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-basalt_v"+version))
		return
	}
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
