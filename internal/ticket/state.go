package ticket

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/richtext"
)

// CommentInput comments on a ticket, or gives the comment of a state change (close and reopen
// need one; pending takes an optional one).
type CommentInput struct {
	ID      int64  `json:"id"`
	Comment string `json:"comment"`
}

// Comment adds a rich-text comment (sanitised, never empty) in any state.
func (s *Service) Comment(ctx context.Context, p *access.Principal, in CommentInput) error {
	x, err := s.get(ctx, s.db, p, in.ID)
	if err != nil {
		return err
	}
	body, err := s.comment(ctx, p, in.Comment, true)
	if err != nil {
		return err
	}
	return addEntry(ctx, s.db, x.ID, Entry{Kind: KindComment, Body: body}, p)
}

// comment sanitises a comment; required refuses an empty one (only whitespace, or markup
// without text or images, is empty).
func (s *Service) comment(ctx context.Context, p *access.Principal, html string, required bool) (string, error) {
	body, err := s.cleanText(ctx, p, "comment", html)
	if err != nil {
		return "", err
	}
	if richtext.Empty(body) {
		if required {
			return "", errCommentEmpty
		}
		return "", nil
	}
	return body, nil
}

// transitions: the states an action may start from, and the state it leads to.
var transitions = map[string]struct {
	from    []string
	to      string
	comment bool // a comment is required
}{
	"pending": {from: []string{StateOpen, StateReopen}, to: StatePending},
	"close":   {from: []string{StateOpen, StatePending, StateReopen}, to: StateClosed, comment: true},
	"reopen":  {from: []string{StateClosed}, to: StateReopen, comment: true},
}

// Pending marks a ticket as waiting (from open or reopen).
func (s *Service) Pending(ctx context.Context, p *access.Principal, in CommentInput) error {
	return s.transition(ctx, p, in, "pending")
}

// Close closes a ticket with a comment (never empty); a closed ticket cannot be closed again.
func (s *Service) Close(ctx context.Context, p *access.Principal, in CommentInput) error {
	return s.transition(ctx, p, in, "close")
}

// Reopen reopens a closed ticket with a comment (never empty).
func (s *Service) Reopen(ctx context.Context, p *access.Principal, in CommentInput) error {
	return s.transition(ctx, p, in, "reopen")
}

func (s *Service) transition(ctx context.Context, p *access.Principal, in CommentInput, action string) error {
	tr := transitions[action]
	x, err := s.get(ctx, s.db, p, in.ID)
	if err != nil {
		return err
	}
	body, err := s.comment(ctx, p, in.Comment, tr.comment)
	if err != nil {
		return err
	}
	allowed := false
	for _, f := range tr.from {
		allowed = allowed || f == x.State
	}
	if !allowed {
		return errState.With(map[string]any{"state": x.State})
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		closedAt := int64(0)
		if tr.to == StateClosed {
			closedAt = db.NowMS()
		}
		// The state it was read in: a concurrent change in between is refused, never overwritten.
		res, err := tx.Exec(ctx, `UPDATE ticket SET state = ?, closed_at = ? WHERE id = ? AND state = ?`, tr.to, closedAt, x.ID, x.State)
		if err != nil {
			return fmt.Errorf("ticket: %s: %w", action, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "err.ticket_state").With(map[string]any{"state": x.State})
		}
		return addEntry(ctx, tx, x.ID, Entry{Kind: KindState, From: x.State, To: tr.to, Body: body}, p)
	})
}
