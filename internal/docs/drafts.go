package docs

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/richtext"
)

// Drafts (docs/docs-wiki.md, "Editor"): the editor autosaves the content being written every
// 30 s to a draft of the user and document. Leaving the editor marks the draft's time; a draft
// left more than DraftKeep ago is discarded, and coming back sooner restores it. A draft never
// marked (the browser closed) counts as left at its last save plus one autosave interval.

// DraftKeep is how long a draft is kept after its editor was left.
const DraftKeep = 2 * time.Minute

// AutosaveInterval is the console's autosave period (the server only uses it for drafts never
// marked as left).
const AutosaveInterval = 30 * time.Second

// Draft is a user's unsaved content of a document.
type Draft struct {
	Found   bool   `json:"found"`
	Content string `json:"content"` // storage images signed for the editor
	// Same: the draft holds what the document already holds (nothing to restore).
	Same    bool  `json:"same"`
	SavedAt int64 `json:"savedAt"`
	LeftAt  int64 `json:"leftAt"`
}

// purgeDrafts discards every expired draft.
func (s *Service) purgeDrafts(ctx context.Context) error {
	now := s.now()
	left := now.Add(-DraftKeep).UnixMilli()
	silent := now.Add(-DraftKeep - AutosaveInterval).UnixMilli()
	_, err := s.db.Exec(ctx, `DELETE FROM doc_draft WHERE (left_at > 0 AND left_at < ?) OR (left_at = 0 AND saved_at < ?)`, left, silent)
	if err != nil {
		return fmt.Errorf("docs: purge drafts: %w", err)
	}
	return nil
}

// GetDraft is the caller's draft of a document it may write (Found false when there is none or
// it expired); reading it means the caller is back in the editor.
func (s *Service) GetDraft(ctx context.Context, p *access.Principal, id int64) (Draft, error) {
	var d Draft
	if _, err := s.writable(ctx, p, id); err != nil {
		return d, err
	}
	if err := s.purgeDrafts(ctx); err != nil {
		return d, err
	}
	err := s.db.QueryRow(ctx, `SELECT content, saved_at, left_at FROM doc_draft WHERE user_id = ? AND doc_id = ?`, p.UserID, id).Scan(&d.Content, &d.SavedAt, &d.LeftAt)
	if db.NotFound(err) {
		return Draft{}, nil
	}
	if err != nil {
		return d, fmt.Errorf("docs: draft: %w", err)
	}
	d.Found = true
	var stored string
	if err := s.db.QueryRow(ctx, `SELECT content FROM doc WHERE id = ?`, id).Scan(&stored); err != nil {
		return d, fmt.Errorf("docs: draft document: %w", err)
	}
	d.Same = stored == d.Content
	d.Content = richtext.Resolve(d.Content, func(key string) string { return s.sign(ctx, key) })
	if _, err := s.db.Exec(ctx, `UPDATE doc_draft SET left_at = 0, saved_at = ? WHERE user_id = ? AND doc_id = ?`, s.now().UnixMilli(), p.UserID, id); err != nil {
		return d, fmt.Errorf("docs: draft back: %w", err)
	}
	return d, nil
}

// DraftInput saves a draft; Leave marks that the editor is being left.
type DraftInput struct {
	ID      int64  `json:"id"`
	Content string `json:"content"`
	Leave   bool   `json:"leave"`
}

// SaveDraft stores the caller's sanitised draft of a document it may write.
func (s *Service) SaveDraft(ctx context.Context, p *access.Principal, in DraftInput) (Draft, error) {
	if _, err := s.writable(ctx, p, in.ID); err != nil {
		return Draft{}, err
	}
	content, err := s.cleanContent(ctx, p, in.Content)
	if err != nil {
		return Draft{}, err
	}
	if err := s.purgeDrafts(ctx); err != nil {
		return Draft{}, err
	}
	now := s.now().UnixMilli()
	var left int64
	if in.Leave {
		left = now
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM doc_draft WHERE user_id = ? AND doc_id = ?`, p.UserID, in.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO doc_draft (user_id, doc_id, content, saved_at, left_at) VALUES (?, ?, ?, ?, ?)`, p.UserID, in.ID, content, now, left)
		return err
	})
	if err != nil {
		return Draft{}, fmt.Errorf("docs: save draft: %w", err)
	}
	return Draft{Found: true, SavedAt: now, LeftAt: left}, nil
}

// DeleteDraft discards the caller's draft of a document (the user chose the saved content).
func (s *Service) DeleteDraft(ctx context.Context, p *access.Principal, id int64) error {
	if _, err := s.writable(ctx, p, id); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `DELETE FROM doc_draft WHERE user_id = ? AND doc_id = ?`, p.UserID, id)
	return err
}
