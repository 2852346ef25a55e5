// Package acctest starts the real Basalt platform (API + worker on a database of their own)
// for the provider's acceptance tests, and holds the checks those tests make from outside
// Terraform: asking the API, and talking to an instance with redis-cli.
package acctest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"basalt/terraform-provider-basalt/internal/client"
)

// Platform is a running Basalt, started by platform.mjs next to this file.
type Platform struct {
	Endpoint string `json:"endpoint"`
	APIKey   string `json:"api_key"`
	Project  string `json:"project"`
	DataDir  string `json:"data_dir"`

	Client *client.Client `json:"-"`
	cmd    *exec.Cmd
	stdin  io.WriteCloser
}

// Options of a platform.
type Options struct {
	// BrokenVMImage makes every create fail inside `terraform apply` (no VM image).
	BrokenVMImage bool
}

func scriptPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "platform.mjs")
}

// Start starts a platform and returns once its API answers and an API key exists.
// It needs DATABASE_URL (a PostgreSQL superuser URL) and the built API and worker.
func Start(opts Options) (*Platform, error) {
	if os.Getenv("DATABASE_URL") == "" {
		return nil, fmt.Errorf("acceptance tests need DATABASE_URL (a PostgreSQL superuser URL; npm test gives one)")
	}
	args := []string{scriptPath()}
	if opts.BrokenVMImage {
		args = append(args, "--broken-vm-image")
	}
	cmd := exec.Command("node", args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting node %s: %w", args[0], err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	p := &Platform{cmd: cmd, stdin: stdin}
	select {
	case line := <-lines:
		if err := json.Unmarshal([]byte(strings.TrimSpace(line)), p); err != nil || p.Endpoint == "" {
			p.Stop()
			return nil, fmt.Errorf("the platform did not start (its output is above): %q", line)
		}
	case <-time.After(4 * time.Minute):
		p.Stop()
		return nil, fmt.Errorf("the platform did not start within 4 minutes")
	}
	p.Client, err = client.New(p.Endpoint, p.APIKey, "terraform-provider-basalt-acctest")
	if err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// Stop closes the helper's stdin: it deletes what the tests left, stops API and worker and
// drops the database, then exits.
func (p *Platform) Stop() {
	_ = p.stdin.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(6 * time.Minute):
		_ = p.cmd.Process.Kill()
	}
}

// ProviderConfig is the provider block that points at this platform.
func (p *Platform) ProviderConfig() string {
	return fmt.Sprintf(`
provider "basalt" {
  endpoint = %q
  api_key  = %q
  project  = %q
}
`, p.Endpoint, p.APIKey, p.Project)
}

// Wait are the poll intervals tests use when they wait on an operation themselves.
var Wait = client.WaitOptions{}
