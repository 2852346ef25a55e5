package client

import (
	"strings"
	"testing"
)

func TestDescribeFailureNamesStepMessageExitAndTail(t *testing.T) {
	step := "terraform_apply"
	exit := int64(1)
	op := &Operation{ID: "op-1", Type: "create", Status: "failed", Error: &OperationError{
		Step: &step, Message: "terraform apply failed", ExitCode: &exit, OutputTail: "Error: no VM image at /x\n",
	}}
	got := DescribeFailure(op)
	for _, want := range []string{"operation op-1 (create) failed", "at step terraform_apply", "terraform apply failed", "(exit status 1)", "Output tail:\nError: no VM image at /x"} {
		if !strings.Contains(got, want) {
			t.Errorf("DescribeFailure = %q; missing %q", got, want)
		}
	}
	if got := DescribeFailure(&Operation{ID: "op-2", Type: "delete", Status: "failed"}); !strings.Contains(got, "without an error record") {
		t.Errorf("no error record: %q", got)
	}
}

func TestNewRejectsEndpointsThatAreNotHTTP(t *testing.T) {
	for _, bad := range []string{"", "127.0.0.1:8080", "ftp://host", "http://"} {
		if _, err := New(bad, "key", "ua"); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
	c, err := New("http://127.0.0.1:8080/v1/", "key", "ua")
	if err != nil || c.endpoint != "http://127.0.0.1:8080" {
		t.Errorf("New with /v1/: %v %v", c, err)
	}
}

func TestProjectPathEscapes(t *testing.T) {
	if got := projectPath("p", "instances", "a/b", "users", "x y"); got != "/v1/projects/p/instances/a%2Fb/users/x%20y" {
		t.Errorf("projectPath = %q", got)
	}
}
