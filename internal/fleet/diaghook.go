package fleet

import (
	"context"
	"log/slog"
)

// The diagnostics hook: a completed diagnostics upload is announced to the listener (the
// attachments, internal/attach, set from internal/app), which files it in diagnostics/<SN>.
// fleet does not import the listener.

// DiagnosticsUpload is a charger's completed diagnostics upload, stored under ObjectKey.
type DiagnosticsUpload struct {
	FileID, CustomerID, DeviceID int64
	SN, Name, ObjectKey          string
	Size                         int64
	SecurityLog                  bool // a security log (FileSecurityLog): filed for the few, not every reader of the device
}

// OnDiagnostics sets the listener of completed diagnostics uploads (nil: none).
func (s *Service) OnDiagnostics(f func(context.Context, DiagnosticsUpload)) {
	if f == nil {
		s.diagHook.Store(nil)
		return
	}
	s.diagHook.Store(&f)
}

func (s *Service) diagnosticsStored(ctx context.Context, u DiagnosticsUpload) {
	f := s.diagHook.Load()
	if f == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			slog.Error("fleet: diagnostics listener panicked", "sn", u.SN, "panic", r)
		}
	}()
	(*f)(ctx, u)
}
