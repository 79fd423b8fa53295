// Package setting keeps small named values in the database (login key pair, privacy policy),
// so every node of a cluster sees the same.
package setting

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"chargeops/internal/db"
)

// Store reads and writes settings.
type Store struct{ db *db.DB }

func NewStore(d *db.DB) *Store { return &Store{db: d} }

// Get returns a value, or "" and false.
func (s *Store) Get(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := s.db.QueryRow(ctx, `SELECT value FROM setting WHERE key = ?`, key).Scan(&v)
	if db.NotFound(err) {
		return "", false, nil
	}
	return v, err == nil, err
}

// Set writes a value.
func (s *Store) Set(ctx context.Context, key, value string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, db.NowMS())
	return err
}

// GetOrCreate returns the stored value, or stores and returns make()'s value when there is none.
// When two nodes race, the first insert wins and both return it.
func (s *Store) GetOrCreate(ctx context.Context, key string, make func() (string, error)) (string, error) {
	if v, ok, err := s.Get(ctx, key); err != nil || ok {
		return v, err
	}
	v, err := make()
	if err != nil {
		return "", err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO setting (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`, key, v, db.NowMS()); err != nil {
		return "", err
	}
	v, _, err = s.Get(ctx, key)
	return v, err
}

// Secret returns the signing key stored under key, made of 32 random bytes (hex) on first use,
// so that every node signs alike.
func (s *Store) Secret(ctx context.Context, key string) ([]byte, error) {
	v, err := s.GetOrCreate(ctx, key, func() (string, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return hex.EncodeToString(b), err
	})
	return []byte(v), err
}
