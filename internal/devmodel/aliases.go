package devmodel

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Alias is another name under which devices report a model (BootNotification chargePointModel).
type Alias struct {
	ID        int64  `json:"id"`
	ModelID   int64  `json:"modelId"`
	ModelName string `json:"modelName"`
	Alias     string `json:"alias"`
	CreatedAt int64  `json:"createdAt"`
}

// AliasFilter filters aliases.
type AliasFilter struct {
	db.Page
	ModelID int64  `json:"modelId"`
	Alias   string `json:"alias"`
}

// Aliases lists the aliases of the models p may read.
func (s *Service) Aliases(ctx context.Context, p *access.Principal, f AliasFilter) (db.List[Alias], error) {
	cond, args := kit.Visible(p, "m.customer_id")
	q := (&db.Query{From: "device_model_alias a JOIN device_model m ON m.id = a.model_id"}).And(cond, args...)
	if f.ModelID != 0 {
		q.And("a.model_id = ?", f.ModelID)
	}
	if f.Alias != "" {
		q.And(`a.alias LIKE ? ESCAPE '\'`, db.Contains(f.Alias))
	}
	out, err := db.Paged(ctx, s.db, q, "a.id, a.model_id, m.name, a.alias, a.created_at", "a.alias", f.Page, func(r db.Scanner) (Alias, error) {
		var a Alias
		err := r.Scan(&a.ID, &a.ModelID, &a.ModelName, &a.Alias, &a.CreatedAt)
		return a, err
	})
	return out, wrap("aliases", err)
}

// AliasInput adds an alias.
type AliasInput struct {
	ModelID int64  `json:"modelId"`
	Alias   string `json:"alias"`
}

// AddAlias adds an alias to a model p may change; an alias names one model only.
func (s *Service) AddAlias(ctx context.Context, p *access.Principal, in AliasInput) (int64, error) {
	in.Alias = strings.TrimSpace(in.Alias)
	if in.Alias == "" || len(in.Alias) > 64 {
		return 0, apperr.InvalidField("alias", "err.required")
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := s.changeable(ctx, tx, p, in.ModelID); err != nil {
			return err
		}
		var owner int64
		err := tx.QueryRow(ctx, `SELECT m.customer_id FROM device_model_alias a JOIN device_model m ON m.id = a.model_id WHERE a.alias = ?`, in.Alias).Scan(&owner)
		switch {
		case err == nil && kit.MayRead(p, owner):
			return apperr.New(apperr.Conflict, "err.name_taken")
		case err == nil:
			return apperr.InvalidField("alias", "err.name_unusable")
		case !db.NotFound(err):
			return err
		}
		id, err = db.InsertID(ctx, tx, `INSERT INTO device_model_alias (model_id, alias, created_at) VALUES (?, ?, ?)`, in.ModelID, in.Alias, db.NowMS())
		return nameClash("alias", err)
	})
	return id, wrap("add alias", err)
}

// DeleteAliases removes aliases of models p may change; all of them or none.
func (s *Service) DeleteAliases(ctx context.Context, p *access.Principal, ids []int64) error {
	err := batch(p, "device_model_alias", `SELECT m.customer_id FROM device_model_alias a JOIN device_model m ON m.id = a.model_id
		WHERE a.id`).Run(ctx, s.db, ids)
	return wrap("delete aliases", err)
}
