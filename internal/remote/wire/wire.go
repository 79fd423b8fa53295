// Package wire is the tunnel protocol of remote access, shared by chargeops (internal/remote)
// and the simulated charger (internal/sim); docs/remote-access.md, "Tunnel":
//
//   - the charger dials the URL of its VPN start (ws(s)://<public url>/remote/tunnel) with
//     "Authorization: Bearer <one-time token>";
//   - the WebSocket's binary messages carry one yamux session (hashicorp/yamux): chargeops is
//     the yamux client and opens every stream, the charger the server and accepts them;
//   - each stream starts with one line of JSON naming the charger's port, {"port":80}\n, then
//     carries that port's bytes (HTTP on 80, SSH on 22) until either side closes it.
package wire

import (
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/hashicorp/yamux"
)

// Header is the first line of a stream.
type Header struct {
	Port int `json:"port"`
}

// maxHeader bounds the header line.
const maxHeader = 256

// WriteHeader starts a stream for port.
func WriteHeader(w io.Writer, port int) error {
	b, _ := json.Marshal(Header{Port: port})
	_, err := w.Write(append(b, '\n'))
	return err
}

// ReadHeader reads a stream's header byte by byte (nothing after it is consumed).
func ReadHeader(r io.Reader) (Header, error) {
	var h Header
	buf := make([]byte, 0, 32)
	one := make([]byte, 1)
	for len(buf) < maxHeader {
		if _, err := io.ReadFull(r, one); err != nil {
			return h, err
		}
		if one[0] == '\n' {
			if err := json.Unmarshal(buf, &h); err != nil {
				return h, err
			}
			if h.Port < 1 || h.Port > 65535 {
				return h, errors.New("wire: bad port")
			}
			return h, nil
		}
		buf = append(buf, one[0])
	}
	return h, errors.New("wire: header too long")
}

// Config is the yamux configuration of both sides: keep-alives every 30 s (they also keep the
// WebSocket open through proxies), no log output.
func Config() *yamux.Config {
	c := yamux.DefaultConfig()
	c.KeepAliveInterval = 30 * time.Second
	c.ConnectionWriteTimeout = 15 * time.Second
	c.StreamOpenTimeout = 15 * time.Second
	c.LogOutput = io.Discard
	return c
}
