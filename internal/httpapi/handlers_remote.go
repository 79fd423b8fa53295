package httpapi

import (
	"net/http"
	"reflect"
	"strings"

	"github.com/gorilla/websocket"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/remote"
)

// Remote access: links, the web page, the terminal (docs/remote-access.md).

func (s *Server) linkStatus(c *Ctx, in remote.DeviceInput) (remote.StatusView, error) {
	return s.Remote.Status(c, c.P, in.DeviceID)
}

func (s *Server) linkOpen(c *Ctx, in remote.OpenInput) (remote.LinkView, error) {
	return s.Remote.Open(c, c.P, in)
}

func (s *Server) linkClose(c *Ctx, in remote.DeviceInput) (Empty, error) {
	_, err := s.Remote.Close(c, c.P, in.DeviceID)
	return Empty{}, err
}

func (s *Server) linkRestart(c *Ctx, in remote.DeviceInput) (remote.LinkView, error) {
	return s.Remote.Restart(c, c.P, in.DeviceID)
}

func (s *Server) linkWeb(c *Ctx, in remote.DeviceInput) (remote.WebLink, error) {
	return s.Remote.WebToken(c, c.P, in.DeviceID, c.Client.IP)
}

func (s *Server) linkSessions(c *Ctx, in remote.SessionListInput) (db.List[remote.SessionView], error) {
	return s.Remote.Sessions(c, c.P, in)
}

var terminalUpgrader = websocket.Upgrader{ReadBufferSize: 8 << 10, WriteBufferSize: 32 << 10,
	CheckOrigin: func(*http.Request) bool { return true }} // checked before the upgrade (consoleOrigin)

// linkTerminal upgrades to the terminal's WebSocket once the service allows the caller a
// terminal on the device and the request comes from the console's own origin (a page of
// another site cannot open it with the user's cookie). Refusals are envelopes, as for any call.
func (s *Server) linkTerminal() Handler {
	return Handler{in: reflect.TypeFor[remote.DeviceInput](), out: reflect.TypeFor[remote.Frame](), raw: true, serve: func(c *Ctx) (any, error) {
		var in remote.DeviceInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		target, err := s.Remote.CheckTerminal(c, c.P, in.DeviceID)
		if err != nil {
			return nil, err
		}
		if !websocket.IsWebSocketUpgrade(c.R) {
			return nil, apperr.New(apperr.Invalid, "err.remote_need_websocket")
		}
		if !s.consoleOrigin(c.R) {
			return nil, apperr.ErrNoPermission
		}
		ws, err := terminalUpgrader.Upgrade(c.W, c.R, nil)
		if err != nil {
			return nil, nil // the upgrader answered
		}
		ended, unwatch := s.Auth.Sessions.Watch(c.R.Context(), c.P.SessionID)
		defer unwatch()
		s.Remote.Terminal(c, target, remote.TerminalSession{WS: ws, P: c.P, Locale: c.Locale, IP: c.Client.IP, Ended: ended})
		return nil, nil
	}}
}

// consoleOrigin: the request's Origin is the console's, the configured public URL's or the
// request's own host.
func (s *Server) consoleOrigin(r *http.Request) bool {
	o := originOf(r.Header.Get("Origin"))
	if o == "" {
		return false
	}
	if o == originOf(s.opt.PublicURL) {
		return true
	}
	return strings.EqualFold(strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(o, "https://"), "http://"), "/", 2)[0], r.Host)
}
