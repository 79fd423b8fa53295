package tlsconf_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"chargeops/internal/tlsconf"
	"chargeops/internal/tlsconf/tlstest"
)

// TestRenegotiationIsRefused: a TLS 1.2 client that asks to renegotiate after the handshake
// (to move to a weaker suite, or to drop a client certificate) gets an unexpected_message alert
// and loses the connection. openssl s_client does what Go's client cannot:
// its "R" command sends a new ClientHello on the established connection.
func TestRenegotiationIsRefused(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed: the renegotiation check needs its s_client")
	}
	dir := t.TempDir()
	store, err := tlsconf.Load(tlsconf.Options{Pairs: []tlsconf.Pair{first(tlstest.WritePair(t, dir, "rsa", tlstest.RSA(t), 1))}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", store.Config())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		_, err = io.Copy(io.Discard, c) // the server reads until the connection fails
		served <- err
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// a client that would take a CBC suite after renegotiating, if the server allowed it
	cmd := exec.CommandContext(ctx, openssl, "s_client", "-connect", ln.Addr().String(), "-tls1_2",
		"-cipher", "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA", "-legacy_renegotiation")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var out []string
	// await reads s_client's output until a line holds want
	await := func(want string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("s_client ended before %q:\n%s", want, strings.Join(out, "\n"))
				}
				out = append(out, l)
				if strings.Contains(l, want) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no %q from s_client:\n%s", want, strings.Join(out, "\n"))
			}
		}
	}
	await("Cipher is ECDHE-RSA-AES128-GCM-SHA256")
	// "R" asks for a renegotiation on the established connection; the pipe stays open so that
	// s_client does not quit on end of input before the server answers
	if _, err := io.WriteString(stdin, "R\n"); err != nil {
		t.Fatal(err)
	}
	await("RENEGOTIATING")
	select {
	case err := <-served:
		if err == nil || !strings.Contains(err.Error(), "unexpected handshake message") {
			t.Fatalf("the server's read ended with %v, want the renegotiation refused", err)
		}
	case <-ctx.Done():
		t.Fatalf("the connection outlived a renegotiation request:\n%s", strings.Join(out, "\n"))
	}
	go func() {
		for range lines { // s_client's last lines, so that its output never blocks Wait
		}
	}()
	stdin.Close()
	var exitErr *exec.ExitError
	if err := cmd.Wait(); err != nil && !errors.As(err, &exitErr) {
		t.Fatal(err)
	}
	pw.Close()
}
