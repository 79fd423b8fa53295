// Package smtptest runs a real SMTP server (emersion/go-smtp) inside a test process and keeps
// what it receives; while set down it refuses mail the way a server out of service does (421).
package smtptest

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one received message: its envelope recipients and its raw data.
type Mail struct {
	To   []string
	Data string
}

// Server is the running server; Port is where it listens on 127.0.0.1.
type Server struct {
	Port int

	mu       sync.Mutex
	down     bool
	attempts []time.Time
	mails    []Mail
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s.Port = ln.Addr().(*net.TCPAddr).Port
	return s
}

// SetDown makes the server refuse (421) or accept mail.
func (s *Server) SetDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

// Attempts are the times a client started a mail (MAIL FROM), refused or not.
func (s *Server) Attempts() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.attempts...)
}

// Mails are the messages accepted so far.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// Data are the raw data of the messages accepted so far.
func (s *Server) Data() []string {
	var out []string
	for _, m := range s.Mails() {
		out = append(out, m.Data)
	}
	return out
}

// To returns the messages accepted for addr.
func (s *Server) To(addr string) []Mail {
	var out []Mail
	for _, m := range s.Mails() {
		for _, t := range m.To {
			if t == addr {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s  *Server
	to []string
}

func (x *session) Mail(string, *smtp.MailOptions) error {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	x.s.attempts = append(x.s.attempts, time.Now())
	if x.s.down {
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	x.s.mu.Lock()
	x.s.mails = append(x.s.mails, Mail{To: x.to, Data: string(b)})
	x.s.mu.Unlock()
	return err
}

func (x *session) Reset()        { x.to = nil }
func (x *session) Logout() error { return nil }
