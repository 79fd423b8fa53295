// Package mail sends mail through SMTP when one is configured, and otherwise keeps it in the
// outbox table, which root reads in the console (so password reset works in the demo).
package mail

import (
	"context"
	"fmt"
	"log/slog"

	gomail "github.com/wneessen/go-mail"

	"chargeops/internal/db"
)

// SMTPConfig is the SMTP server to use; an empty Host means outbox only.
type SMTPConfig struct {
	Host, User, Password, From, TLS string
	Port                            int
}

// Mailer delivers mail.
type Mailer struct {
	db   *db.DB
	smtp SMTPConfig
}

func New(d *db.DB, c SMTPConfig) *Mailer { return &Mailer{db: d, smtp: c} }

// Send delivers one plain-text mail.
func (m *Mailer) Send(ctx context.Context, to, subject, body string) error {
	if m.smtp.Host == "" {
		_, err := m.db.Exec(ctx, `INSERT INTO mail_outbox (recipient, subject, body, created_at) VALUES (?, ?, ?, ?)`, to, subject, body, db.NowMS())
		return err
	}
	msg := gomail.NewMsg()
	if err := msg.From(m.smtp.From); err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	if err := msg.To(to); err != nil {
		return fmt.Errorf("mail to: %w", err)
	}
	msg.Subject(subject)
	msg.SetBodyString(gomail.TypeTextPlain, body)
	opts := []gomail.Option{gomail.WithPort(m.smtp.Port)}
	switch m.smtp.TLS {
	case "tls":
		opts = append(opts, gomail.WithSSL())
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if m.smtp.User != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(m.smtp.User), gomail.WithPassword(m.smtp.Password))
	}
	client, err := gomail.NewClient(m.smtp.Host, opts...)
	if err != nil {
		return err
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		slog.Warn("mail not sent", "to", to, "err", err)
		return err
	}
	return nil
}

// OutboxMail is a mail kept in the outbox.
type OutboxMail struct {
	ID        int64  `json:"id"`
	To        string `json:"to"`
	Subject   string `json:"subject"`
	Body      string `json:"body"`
	CreatedAt int64  `json:"createdAt"`
}

// Outbox returns a page of kept mails, newest first.
func (m *Mailer) Outbox(ctx context.Context, p db.Page) (db.List[OutboxMail], error) {
	return db.Paged(ctx, m.db, &db.Query{From: "mail_outbox"}, "id, recipient, subject, body, created_at", "id DESC", p,
		func(r db.Scanner) (OutboxMail, error) {
			var o OutboxMail
			err := r.Scan(&o.ID, &o.To, &o.Subject, &o.Body, &o.CreatedAt)
			return o, err
		})
}
