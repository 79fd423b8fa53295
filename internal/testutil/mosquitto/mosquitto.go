// Package mosquitto runs Debian's Mosquitto broker for a test: its own process on a free
// loopback port, with a password file, an ACL in the scheme of docs/mqtt.md ("External
// broker") and persistence in the test's directory, so a test can stop and start it again.
package mosquitto

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Broker is a Mosquitto process of a test.
type Broker struct {
	t    testing.TB
	dir  string
	Port int
	cmd  *exec.Cmd
}

// Users are the accounts the broker knows: name → password. "chargeops" may use every
// chargeops topic; every other user is a device whose name is its SN.
type Users map[string]string

// Start starts Mosquitto, or skips the test when the machine has none (CI installs it:
// scripts/ensure-mosquitto.sh, and there a missing broker fails the test).
func Start(t testing.TB, users Users) *Broker {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
			if _, serr := os.Stat(p); serr == nil {
				bin, err = p, nil
				break
			}
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("mosquitto is not installed (scripts/ensure-mosquitto.sh installs it)")
		}
		t.Skip("mosquitto is not installed")
	}
	passwd, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		t.Skip("mosquitto_passwd is not installed")
	}
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "passwd")
	for name, pw := range users {
		args := []string{"-b", pwFile, name, pw}
		if _, serr := os.Stat(pwFile); serr != nil {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(passwd, args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v: %s", err, out)
		}
	}
	acl := `user chargeops
topic readwrite chargeops/v1/#
pattern write chargeops/v1/%u/status
pattern write chargeops/v1/%u/telemetry
pattern write chargeops/v1/%u/alarms
pattern write chargeops/v1/%u/cmd/res/+
pattern read chargeops/v1/%u/cmd
pattern read chargeops/v1/%u/ack
`
	if err := os.WriteFile(filepath.Join(dir, "acl"), []byte(acl), 0o600); err != nil {
		t.Fatal(err)
	}
	b := &Broker{t: t, dir: dir, Port: freePort(t)}
	// run as whoever runs the test: Mosquitto started as root otherwise switches to its own
	// user, who cannot read the test's files
	conf := fmt.Sprintf(`user %s
listener %d 127.0.0.1
allow_anonymous false
password_file %s
acl_file %s
persistence true
persistence_location %s/
autosave_interval 1
log_dest stderr
log_type error
`, currentUser(), b.Port, pwFile, filepath.Join(dir, "acl"), dir)
	if err := os.WriteFile(filepath.Join(dir, "mosquitto.conf"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.cmd = nil
	b.start(bin)
	t.Cleanup(b.Stop)
	return b
}

// URL is the broker's mqtt:// URL.
func (b *Broker) URL() string { return fmt.Sprintf("mqtt://127.0.0.1:%d", b.Port) }

// Addr is its host:port.
func (b *Broker) Addr() string { return fmt.Sprintf("127.0.0.1:%d", b.Port) }

func (b *Broker) start(bin string) {
	b.t.Helper()
	cmd := exec.Command(bin, "-c", filepath.Join(b.dir, "mosquitto.conf"))
	var out strings.Builder
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	b.cmd = cmd
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", b.Addr()); err == nil {
			c.Close()
			return
		}
	}
	b.t.Fatalf("mosquitto did not start: %s", out.String())
}

// Stop ends the broker (SIGTERM: it saves its persistent state first).
func (b *Broker) Stop() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	_ = b.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = b.cmd.Process.Kill()
		<-done
	}
	b.cmd = nil
}

// Restart stops the broker and starts it again on the same port with its saved state.
func (b *Broker) Restart() { b.RestartAfter(0) }

// RestartAfter stops the broker, waits down (the broker is away), and starts it again on the
// same port with its saved state.
func (b *Broker) RestartAfter(down time.Duration) {
	b.t.Helper()
	bin := b.cmdPath()
	b.Stop()
	time.Sleep(down)
	b.start(bin)
}

func (b *Broker) cmdPath() string {
	if b.cmd != nil {
		return b.cmd.Path
	}
	p, _ := exec.LookPath("mosquitto")
	if p == "" {
		p = "/usr/sbin/mosquitto"
	}
	return p
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "root"
}
