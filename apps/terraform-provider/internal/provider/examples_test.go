package provider_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The examples (and so the docs made from them) are formatted as terraform fmt writes them.
func TestExamplesAreFormatted(t *testing.T) {
	requireTerraform(t)
	examples := filepath.Join(repositoryRoot(), "apps", "terraform-provider", "examples")
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "fmt", "-check", "-recursive", "-diff", examples)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform fmt -check %s: %v\n%s", examples, err, out)
	}
}
