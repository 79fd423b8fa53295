package token

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Batch actions are atomic (docs/tokens.md): one scoped statement over every id in a
// transaction; when fewer rows change than ids were sent, nothing changes and the answer is
// not-found.

// SetBlocked blocks (or unblocks) tokens in p's scope: all of them or none.
func (s *Service) SetBlocked(ctx context.Context, p *access.Principal, ids []int64, blocked bool) error {
	if err := kit.IDs(ids).CheckMax(maxIDs); err != nil {
		return err
	}
	status := StatusActive
	if blocked {
		status = StatusBlocked
	}
	return wrap("block", s.setAll(ctx, p, ids, "status", status))
}

// SetExpiry sets the expiry (unix ms, 0: never) of tokens in p's scope: all of them or none.
func (s *Service) SetExpiry(ctx context.Context, p *access.Principal, ids []int64, expiresAt int64) error {
	if err := kit.IDs(ids).CheckMax(maxIDs); err != nil {
		return err
	}
	if expiresAt < 0 {
		return apperr.InvalidField("expiresAt", "err.invalid")
	}
	return wrap("expiry", s.setAll(ctx, p, ids, "expires_at", expiresAt))
}

// inScope is the batch statement on the tokens in p's scope.
func inScope(p *access.Principal) kit.Batch {
	cond, args := p.Scope.CustomerCond("customer_id")
	return kit.Batch{Table: "token", Scope: cond, ScopeArgs: args}
}

// setAll sets column (a constant of this file) to value for the tokens ids in p's scope, under
// a new version: all of them or none.
func (s *Service) setAll(ctx context.Context, p *access.Principal, ids []int64, column string, value any) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		v, err := nextVersion(ctx, tx)
		if err != nil {
			return err
		}
		b := inScope(p)
		b.Set, b.SetArgs = column+" = ?, version = ?, updated_at = ?", []any{value, v, db.NowMS()}
		return b.RunTx(ctx, tx, ids)
	})
}

// Delete removes tokens in p's scope, all of them or none; each leaves a tombstone so that a
// differential local list removes it from the chargers.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	if err := kit.IDs(ids).CheckMax(maxIDs); err != nil {
		return err
	}
	b := inScope(p)
	b.Before = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		v, err := nextVersion(ctx, tx)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO token_tombstone (customer_id, tag_key, id_tag, version)
			SELECT customer_id, tag_key, id_tag, ? FROM token WHERE id IN (`+ids.In()+`) AND `+b.Scope+`
			ON CONFLICT (customer_id, tag_key) DO UPDATE SET id_tag = excluded.id_tag, version = excluded.version`,
			append(append([]any{v}, ids.Args()...), b.ScopeArgs...)...)
		return err
	}
	return wrap("delete", b.Run(ctx, s.db, ids))
}

// Unknown-token policies of a customer.
const (
	PolicyAccept = 0 // accept and record the token (origin recorded)
	PolicyRefuse = 1 // answer Invalid
)

// Policy is a customer's policy for unknown tokens and its list version.
type Policy struct {
	CustomerID  int64 `json:"customerId"`
	Unknown     int   `json:"unknown"` // 0 accept and record, 1 refuse
	ListVersion int64 `json:"listVersion"`
}

// GetPolicy returns the policy of a customer in p's scope (accept and record when never set).
func (s *Service) GetPolicy(ctx context.Context, p *access.Principal, customerID int64) (Policy, error) {
	out := Policy{CustomerID: customerID}
	if err := s.inScope(ctx, p, customerID); err != nil {
		return out, err
	}
	err := s.db.QueryRow(ctx, `SELECT COALESCE((SELECT unknown FROM token_policy WHERE customer_id = ?), ?)`, customerID, PolicyAccept).Scan(&out.Unknown)
	if err != nil {
		return out, wrap("policy", err)
	}
	out.ListVersion, err = listVersion(ctx, s.db, customerID)
	return out, wrap("policy", err)
}

// SetPolicy sets the policy of a customer in p's scope.
func (s *Service) SetPolicy(ctx context.Context, p *access.Principal, in Policy) error {
	if in.Unknown != PolicyAccept && in.Unknown != PolicyRefuse {
		return apperr.InvalidField("unknown", "err.invalid")
	}
	if err := s.inScope(ctx, p, in.CustomerID); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO token_policy (customer_id, unknown, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (customer_id) DO UPDATE SET unknown = excluded.unknown, updated_at = excluded.updated_at`, in.CustomerID, in.Unknown, db.NowMS())
	return wrap("set policy", err)
}

func (s *Service) inScope(ctx context.Context, p *access.Principal, customerID int64) error {
	cond, args := p.Scope.CustomerCond("id")
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE id = ? AND `+cond, append([]any{customerID}, args...)...).Scan(&n); err != nil {
		return wrap("scope", err)
	}
	if n == 0 {
		return apperr.ErrNotFound
	}
	return nil
}

// listVersion is a customer's list version: the version of its last token change.
func listVersion(ctx context.Context, q db.Querier, customerID int64) (int64, error) {
	var v int64
	err := q.QueryRow(ctx, `SELECT COALESCE(MAX(v), 0) FROM (SELECT MAX(version) AS v FROM token WHERE customer_id = ?
		UNION ALL SELECT MAX(version) AS v FROM token_tombstone WHERE customer_id = ?) x`, customerID, customerID).Scan(&v)
	return v, err
}
