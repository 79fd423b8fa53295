// Package mail keeps every mail in the outbox table first. Without SMTP that is where it
// stays, and root reads it in the console (so password reset works in the demo); with SMTP a
// worker (Run) delivers the waiting rows, retrying a failing server with exponential back-off
// and giving up after a bounded number of attempts, keeping the row (docs/messages.md).
package mail

import (
	"context"
	"fmt"

	gomail "github.com/wneessen/go-mail"

	"chargeops/internal/db"
)

// SMTPConfig is the SMTP server to use; an empty Host means outbox only.
type SMTPConfig struct {
	Host, User, Password, From, TLS string
	Port                            int
}

// Outbox row states (mail_outbox.status).
const (
	StatusWaiting = 0 // kept (no SMTP) or waiting for its next attempt
	StatusSent    = 1
	StatusFailed  = 2 // given up after Retry.MaxAttempts
)

// Mailer queues and delivers mail.
type Mailer struct {
	db    *db.DB
	smtp  SMTPConfig
	Retry Retry
	wake  chan struct{}
}

// New returns a mailer with the default retry policy.
func New(d *db.DB, c SMTPConfig) *Mailer {
	return &Mailer{db: d, smtp: c, Retry: DefaultRetry(), wake: make(chan struct{}, 1)}
}

// SMTP reports whether a server is configured (otherwise mail stays in the outbox).
func (m *Mailer) SMTP() bool { return m.smtp.Host != "" }

// Send queues one plain-text mail and, with SMTP, tries it at once (a password-reset mail
// leaves while its user waits); a failed try is left to the worker's retries.
func (m *Mailer) Send(ctx context.Context, to, subject, body string) error {
	id, err := m.Enqueue(ctx, m.db, to, subject, body)
	if err != nil {
		return err
	}
	if m.SMTP() {
		m.attempt(ctx, id)
	}
	return nil
}

// Enqueue writes a mail into the outbox through q (a transaction: the mail is queued exactly
// when the work that made it commits). Call Wake after the commit.
func (m *Mailer) Enqueue(ctx context.Context, q db.Querier, to, subject, body string) (int64, error) {
	now := db.NowMS()
	id, err := db.InsertID(ctx, q, `INSERT INTO mail_outbox (recipient, subject, body, created_at, status, attempts, next_attempt_at) VALUES (?, ?, ?, ?, ?, 0, ?)`,
		to, subject, body, now, StatusWaiting, now)
	if err != nil {
		return 0, fmt.Errorf("mail: enqueue: %w", err)
	}
	return id, nil
}

// Wake makes the worker look for due mail now.
func (m *Mailer) Wake() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// deliver sends one mail through the configured SMTP server.
func (m *Mailer) deliver(ctx context.Context, to, subject, body string) error {
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
	return client.DialAndSendWithContext(ctx, msg)
}

// OutboxMail is a mail of the outbox with its delivery state.
type OutboxMail struct {
	ID        int64  `json:"id"`
	To        string `json:"to"`
	Subject   string `json:"subject"`
	Body      string `json:"body"`
	CreatedAt int64  `json:"createdAt"`
	Status    int    `json:"status"` // 0 waiting or kept, 1 sent, 2 given up
	Attempts  int    `json:"attempts"`
	LastError string `json:"lastError"`
	SentAt    int64  `json:"sentAt"`
}

// Outbox returns a page of mails, newest first.
func (m *Mailer) Outbox(ctx context.Context, p db.Page) (db.List[OutboxMail], error) {
	return db.Paged(ctx, m.db, &db.Query{From: "mail_outbox"}, "id, recipient, subject, body, created_at, status, attempts, last_error, sent_at", "id DESC", p,
		func(r db.Scanner) (OutboxMail, error) {
			var o OutboxMail
			err := r.Scan(&o.ID, &o.To, &o.Subject, &o.Body, &o.CreatedAt, &o.Status, &o.Attempts, &o.LastError, &o.SentAt)
			return o, err
		})
}
