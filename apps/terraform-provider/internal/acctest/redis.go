package acctest

import (
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Bridge is the interface the local region's VMs sit behind.
const Bridge = "basalt0"

// checkRoute refuses any address that is neither loopback nor routed through the project's
// bridge: tests talk to nothing else.
func checkRoute(host string) error {
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("host %q is not an IP address", host)
	}
	if addr.IsLoopback() {
		return nil
	}
	out, err := exec.Command("ip", "route", "get", addr.String()).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip route get %s: %v: %s", addr, err, out)
	}
	if !strings.Contains(" "+string(out)+" ", " dev "+Bridge+" ") {
		return fmt.Errorf("%s is not routed through %s (%s); not connecting", addr, Bridge, strings.TrimSpace(string(out)))
	}
	return nil
}

// Conn is where and as whom redis-cli connects: a connection URI and, for rediss://, the PEM
// of the CA that signed the endpoint's certificate.
type Conn struct {
	URI string
	CA  string
}

// RedisCLI runs commands through the real redis-cli against the endpoint of a connection URI,
// as its user. The credentials go in an AUTH line on stdin, never in argv; each command is one
// line. It returns redis-cli's replies, one per line.
func RedisCLI(c Conn, commands ...string) (string, error) {
	u, err := url.Parse(c.URI)
	if err != nil || u.User == nil {
		return "", fmt.Errorf("not a connection URI with credentials")
	}
	if err := checkRoute(u.Hostname()); err != nil {
		return "", err
	}
	args := []string{"-h", u.Hostname(), "-p", u.Port()}
	if u.Scheme == "rediss" {
		if c.CA == "" {
			return "", fmt.Errorf("a rediss:// URI needs the CA certificate")
		}
		dir, err := os.MkdirTemp("", "basalt-tfacc-ca-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		caFile := filepath.Join(dir, "ca.pem")
		if err := os.WriteFile(caFile, []byte(c.CA), 0o600); err != nil {
			return "", err
		}
		args = append(args, "--tls", "--cacert", caFile)
	}
	password, _ := u.User.Password()
	input := fmt.Sprintf("AUTH %s %s\n%s\n", u.User.Username(), password, strings.Join(commands, "\n"))
	cmd := exec.Command("redis-cli", args...)
	cmd.Stdin = strings.NewReader(input)
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return string(out), fmt.Errorf("redis-cli did not finish within 15 s")
	}
	return strings.TrimSpace(string(out)), err
}

// WriteAndRead sets key to value and reads it back as the URI's user; it fails unless
// authentication, the write and the read all succeed.
func WriteAndRead(c Conn, key, value string) error {
	out, err := RedisCLI(c, "SET "+key+" "+value, "GET "+key)
	if err != nil {
		return fmt.Errorf("redis-cli: %v: %s", err, out)
	}
	if want := "OK\nOK\n" + value; out != want {
		return fmt.Errorf("redis-cli answered %q, want %q", out, want)
	}
	return nil
}

// AuthFails reports nil when the URI's credentials are refused.
func AuthFails(c Conn) error {
	out, _ := RedisCLI(c, "PING")
	first := strings.SplitN(out, "\n", 2)[0]
	if strings.Contains(first, "WRONGPASS") || strings.Contains(first, "ERR") {
		return nil
	}
	return fmt.Errorf("the credentials still work: redis-cli answered %q", out)
}
