package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"basalt/terraform-provider-basalt/internal/acctest"
	"basalt/terraform-provider-basalt/internal/client"
	"basalt/terraform-provider-basalt/internal/provider"
)

// providerFactories serve the provider in-process to the real Terraform (TF_ACC_TERRAFORM_PATH).
var providerFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"basalt": providerserver.NewProtocol6WithError(provider.New("acctest")()),
}

var (
	sharedOnce     sync.Once
	sharedPlatform *acctest.Platform
	sharedErr      error
)

// TestMain points terraform-plugin-testing at the repository's Terraform (it would otherwise
// download one), keeps Terraform from calling home, and stops the shared platform after the
// last test, whatever the outcome.
func TestMain(m *testing.M) {
	root := repositoryRoot()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		os.Setenv("TF_ACC_TERRAFORM_PATH", filepath.Join(root, ".tools", "bin", "terraform"))
	}
	if os.Getenv("TF_CLI_CONFIG_FILE") == "" {
		os.Setenv("TF_CLI_CONFIG_FILE", filepath.Join(root, ".tools", "terraformrc"))
	}
	os.Setenv("CHECKPOINT_DISABLE", "1")
	code := m.Run()
	if sharedPlatform != nil {
		sharedPlatform.Stop()
	}
	os.Exit(code)
}

// accPlatform is the platform the acceptance tests share (started on first use); the test is
// skipped without TF_ACC, as terraform-plugin-testing skips it.
func accPlatform(t *testing.T) *acctest.Platform {
	t.Helper()
	skipUnlessAcc(t)
	sharedOnce.Do(func() { sharedPlatform, sharedErr = acctest.Start(acctest.Options{}) })
	if sharedErr != nil {
		t.Fatalf("starting the Basalt platform: %v", sharedErr)
	}
	return sharedPlatform
}

// repositoryRoot is four levels above this file (apps/terraform-provider/internal/provider).
func repositoryRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}

// requireTerraform skips a test that runs Terraform when the repository's Terraform is not built.
func requireTerraform(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(os.Getenv("TF_ACC_TERRAFORM_PATH")); err != nil {
		t.Skipf("no Terraform at %s (the bootstrap builds it): %v", os.Getenv("TF_ACC_TERRAFORM_PATH"), err)
	}
}

func skipUnlessAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (npm test does) to run it against a real API and worker")
	}
}

// checkInstanceDestroyed asks the API, not the state: every basalt_instance of the run must
// be gone (404) or deleted.
func checkInstanceDestroyed(p *acctest.Platform) func(*terraform.State) error {
	return func(s *terraform.State) error {
		for _, rs := range s.RootModule().Resources {
			if rs.Type != "basalt_instance" {
				continue
			}
			inst, err := p.Client.GetInstance(context.Background(), p.Project, rs.Primary.ID)
			if client.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("asking the API about %s: %w", rs.Primary.ID, err)
			}
			if !inst.Gone() {
				return fmt.Errorf("instance %s is still %s after destroy", rs.Primary.ID, inst.Status)
			}
		}
		return nil
	}
}
