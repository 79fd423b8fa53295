// Package clientaddr tells where an HTTP request comes from, for the console and the gateway.
package clientaddr

import (
	"net"
	"net/http"
	"strings"
)

// IP is the client's address: the first X-Forwarded-For entry when the server sits behind a
// trusted proxy (trustProxy), else the connection's remote address.
func IP(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			return strings.TrimSpace(strings.Split(xff, ",")[0])
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
