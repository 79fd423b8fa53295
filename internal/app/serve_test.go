package app_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// SIGTERM with consoles open: the live status streams end at once, so Serve returns without
// waiting out the 20 s grace of ordinary requests, and without an error.
func TestServeEndsLiveStreamsOnShutdown(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, nil)
		root := env.Root()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		served := make(chan error, 1)
		go func() { served <- env.App.Serve(ctx, ln) }()

		req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/auth/sys/dev/events/stream", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Cookie", "chargeops_token="+root.Cookie("chargeops_token"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("stream answered %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		first, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil || !strings.HasPrefix(first, "retry:") {
			t.Fatalf("stream did not start: %q %v", first, err)
		}

		stop() // what SIGTERM does to the serve context
		select {
		case err := <-served:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second): // far below the 20 s grace the stream used to hold
			t.Fatal("Serve still waits for the open stream")
		}
		if _, err := io.ReadAll(resp.Body); err != nil && !strings.Contains(err.Error(), "EOF") {
			t.Fatalf("stream did not end cleanly: %v", err)
		}
	})
}
