package remote

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
)

// WebPrefix is where the charger's web page is served: /remote/web/<linkId>/<token>/<path>.
const WebPrefix = "/remote/web/"

// webCSP keeps the proxied page from acting as the console: a sandbox without allow-same-origin
// gives it an opaque origin (no console cookies, storage or same-origin API calls); the console
// may frame it.
const webCSP = "sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'self'"

// WebLink answers link/web.
type WebLink struct {
	URL string `json:"url"`
}

// errWebSignedOut refuses a web token whose console session ended (403).
const errWebSignedOut = "err.remote_web_signed_out"

// WebToken gives p a path token for the web page of the device's open link: per user and
// link, valid while used (it ends after WebIdle without a request), never past the link and
// never past p's console session (signed out, expired, account disabled or deleted, role
// changed: docs/remote-access.md, "The web page"). Models that support WEB; a web link needs
// p's WEB/SSH access to allow web, an SSH link also needs the Only Root access (or root).
func (s *Service) WebToken(ctx context.Context, p *access.Principal, deviceID int64, ip string) (WebLink, error) {
	if p.SessionID == "" { // only a console session may hold the page
		return WebLink{}, apperr.ErrNotLoggedIn
	}
	t, err := s.device(ctx, p, deviceID)
	if err != nil {
		return WebLink{}, err
	}
	l, err := s.active(ctx, t.id)
	if err != nil {
		return WebLink{}, err
	}
	if l == nil || l.Status != StatusOpen {
		return WebLink{}, ErrNoLink
	}
	if err := s.allowed(ctx, p, t, KindWeb); err != nil {
		return WebLink{}, err
	}
	if l.Kind == KindSSH && !p.Root && p.Role.WebSSHAccess != access.WebSSHRoot {
		return WebLink{}, apperr.New(apperr.NoPermission, "err.link_not_allowed").With(map[string]any{"link": KindSSH})
	}
	tok := newToken()
	if _, err := s.startSession(ctx, sessionStart{linkID: l.ID, deviceID: t.id, sn: t.sn, kind: KindWeb, userID: p.UserID, userName: p.UserName,
		ip: ip, tokenHash: hashToken(tok), consoleSession: p.SessionID}); err != nil {
		return WebLink{}, err
	}
	return WebLink{URL: fmt.Sprintf("%s%d/%s/", WebPrefix, l.ID, tok)}, nil
}

// webAccess is a valid path token: its session and link.
type webAccess struct {
	session, link int64
	lastSeen      int64
}

// Outcomes of webGrant.
type webOutcome int

const (
	webGranted   webOutcome = iota
	webExpired              // unknown token, ended session or link, idle too long: 404
	webSignedOut            // the console session it was given to ended: 403 (the web session ends)
	webUnchecked            // the console session could not be read (database): 503
)

// webGrant checks a path token against its console session and its link: the console session
// alive (else the page is refused as signed out, whether or not the web session ended already),
// the web session open and used within WebIdle, the link open.
func (s *Service) webGrant(ctx context.Context, linkID int64, tok string) (webAccess, webOutcome) {
	if !validToken(tok) {
		return webAccess{}, webExpired
	}
	var a webAccess
	var status int
	var ended int64
	var console string
	err := s.db.QueryRow(ctx, `SELECT rs.id, rs.link_id, rs.last_seen_at, rs.ended_at, rs.console_session, l.status FROM remote_session rs
		JOIN remote_link l ON l.id = rs.link_id WHERE rs.token_hash = ? AND rs.link_id = ? AND rs.kind = ?`, hashToken(tok), linkID, KindWeb).
		Scan(&a.session, &a.link, &a.lastSeen, &ended, &console, &status)
	if err != nil {
		return a, webExpired
	}
	over := console == ""
	if !over {
		err := s.opt.Sessions.Check(ctx, console)
		if _, business := apperr.As(err); err != nil && !business {
			slog.Warn("remote web: console session not checked", "session", a.session, "err", err)
			return a, webUnchecked
		}
		over = err != nil
	}
	if over {
		if ended == 0 {
			s.endSignedOut(ctx, a)
		}
		return a, webSignedOut
	}
	if ended != 0 || status != StatusOpen || a.lastSeen < db.NowMS()-s.opt.WebIdle.Milliseconds() {
		return a, webExpired
	}
	return a, webGranted
}

// endSignedOut ends a web session whose console session ended (its audit row written now).
func (s *Service) endSignedOut(ctx context.Context, a webAccess) {
	if err := s.endSessions(ctx, `id = ?`, a.session); err != nil {
		slog.Warn("remote web: session of an ended console session not ended", "session", a.session, "err", err)
	}
}

// webTarget carries what the proxy needs from the request's path.
type webTarget struct {
	linkID int64
	prefix string // /remote/web/<linkId>/<token>
}

type webTargetKey struct{}

// newProxy is the reverse proxy of the web page: requests go to the charger's web port through
// a tunnel stream (never a network route), without the console's cookies; answers lose their
// cookies, get the sandbox policy and keep their redirects under the token's path.
func (s *Service) newProxy() http.Handler {
	transport := &http.Transport{
		// The URL's host names the link ("link-<id>"), so one transport serves every link.
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			id, err := strconv.ParseInt(strings.TrimPrefix(host, "link-"), 10, 64)
			if err != nil {
				return nil, err
			}
			return s.Stream(ctx, id, WebPort)
		},
		DisableKeepAlives:     true,
		ResponseHeaderTimeout: 30 * time.Second,
	}
	rp := &httputil.ReverseProxy{
		Transport: transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			wt := pr.In.Context().Value(webTargetKey{}).(webTarget)
			out := pr.Out
			out.URL.Scheme = "http"
			out.URL.Host = fmt.Sprintf("link-%d", wt.linkID)
			out.Host = "localhost"
			out.URL.Path = "/" + strings.TrimPrefix(strings.TrimPrefix(pr.In.URL.Path, wt.prefix), "/")
			out.URL.RawPath = ""
			for _, h := range []string{"Cookie", "Origin", "Referer", "X-Csrf-Token"} {
				out.Header.Del(h)
			}
		},
		ModifyResponse: func(resp *http.Response) error {
			wt := resp.Request.Context().Value(webTargetKey{}).(webTarget)
			h := resp.Header
			for _, k := range []string{"Set-Cookie", "Content-Security-Policy", "X-Frame-Options", "Strict-Transport-Security"} {
				h.Del(k)
			}
			if loc := h.Get("Location"); loc != "" {
				h.Set("Location", rebase(loc, wt.prefix))
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			webError(w, r, http.StatusBadGateway, "err.remote_connection_failed")
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// /remote/web/<linkId>/<token>[/<path>]
		parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, WebPrefix), "/", 3)
		if len(parts) < 2 {
			webError(w, r, http.StatusNotFound, "err.remote_web_expired")
			return
		}
		linkID, err := strconv.ParseInt(parts[0], 10, 64)
		if err != nil {
			webError(w, r, http.StatusNotFound, "err.remote_web_expired")
			return
		}
		a, outcome := s.webGrant(r.Context(), linkID, parts[1])
		switch outcome {
		case webExpired:
			webError(w, r, http.StatusNotFound, "err.remote_web_expired")
			return
		case webSignedOut:
			webError(w, r, http.StatusForbidden, errWebSignedOut)
			return
		case webUnchecked:
			webError(w, r, http.StatusServiceUnavailable, "err.remote_connection_failed")
			return
		}
		prefix := WebPrefix + parts[0] + "/" + parts[1]
		if len(parts) == 2 { // the page's relative links need the trailing slash
			http.Redirect(w, r, prefix+"/", http.StatusFound)
			return
		}
		if now := db.NowMS(); now-a.lastSeen > 30_000 {
			_, _ = s.db.Exec(r.Context(), `UPDATE remote_session SET last_seen_at = ? WHERE id = ?`, now, a.session)
		}
		h := w.Header()
		h.Set("Content-Security-Policy", webCSP)
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		ctx := context.WithValue(r.Context(), webTargetKey{}, webTarget{linkID: linkID, prefix: prefix})
		rp.ServeHTTP(w, r.WithContext(ctx))
	})
}

// rebase keeps a redirect of the charger under the token's path: "/x" and "http://<any>/x"
// become prefix+"/x"; other forms (relative) stay.
func rebase(loc, prefix string) string {
	u, err := url.Parse(loc)
	if err != nil {
		return prefix + "/"
	}
	if u.IsAbs() || strings.HasPrefix(loc, "//") {
		u.Scheme, u.Host, u.User = "", "", nil
		return prefix + "/" + strings.TrimPrefix(u.RequestURI(), "/")
	}
	if strings.HasPrefix(loc, "/") {
		return prefix + loc
	}
	return loc
}

// webError answers a web-page request chargeops could not serve, in the reader's language.
func webError(w http.ResponseWriter, r *http.Request, status int, key string) {
	loc := i18n.Normalize(r.Header.Get("Accept-Language"))
	if loc == "" {
		loc = i18n.EnUS
	}
	h := w.Header()
	h.Set("Content-Security-Policy", webCSP)
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Cache-Control", "no-store")
	http.Error(w, i18n.T(loc, key, nil), status)
}
