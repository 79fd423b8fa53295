package application

import (
	"context"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
	"chargeops/internal/user"
)

// manageAll lets the caller bind user 7 of customer 3 and nobody else.
type manageAll struct{}

func (manageAll) Manageable(_ context.Context, _ *access.Principal, id int64) (user.User, error) {
	if id != 7 {
		return user.User{}, apperr.ErrNotFound
	}
	return user.User{ID: 7, CustomerID: 3}, nil
}

func TestSecretsRotationGrace(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := New(d, setting.NewStore(d), manageAll{}, nil)
		now := time.Unix(1_800_000_000, 0)
		s.Now = func() time.Time { return now }
		p := &access.Principal{UserID: 1, Root: true, Scope: access.FullScope()}

		made, err := s.Add(ctx, p, Input{Name: "Billing", UserID: 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(made.AppSecret) != 43 || !strings.HasPrefix(made.AppID, "app") {
			t.Fatalf("made %+v: want a 43-character base64url secret and an app id", made)
		}
		var stored string
		if err := d.QueryRow(ctx, `SELECT secret_enc FROM application WHERE id = ?`, made.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, made.AppSecret) || !strings.HasPrefix(stored, sealPrefix) {
			t.Fatalf("stored secret %q is not sealed", stored)
		}
		a, cur, prev, err := s.Secrets(ctx, made.AppID)
		if err != nil || string(cur) != made.AppSecret || prev != nil || a.CustomerID != 3 || a.UserID != 7 {
			t.Fatalf("secrets: %+v %q %q %v", a, cur, prev, err)
		}

		rot, err := s.Rotate(ctx, p, made.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rot.AppSecret == made.AppSecret || rot.AppID != made.AppID || rot.PrevExpiresAt != now.Add(DefaultGrace).UnixMilli() {
			t.Fatalf("rotate %+v", rot)
		}
		now = now.Add(DefaultGrace - time.Second)
		if _, cur, prev, err = s.Secrets(ctx, made.AppID); err != nil || string(cur) != rot.AppSecret || string(prev) != made.AppSecret {
			t.Fatalf("within grace: %q %q %v", cur, prev, err)
		}
		now = now.Add(2 * time.Second)
		if _, cur, prev, err = s.Secrets(ctx, made.AppID); err != nil || string(cur) != rot.AppSecret || prev != nil {
			t.Fatalf("after grace: %q %q %v", cur, prev, err)
		}

		// A second rotation drops the first secret at once.
		rot2, err := s.Rotate(ctx, p, made.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, cur, prev, _ = s.Secrets(ctx, made.AppID); string(cur) != rot2.AppSecret || string(prev) != rot.AppSecret {
			t.Fatalf("second rotation: %q %q", cur, prev)
		}

		// A sealed secret copied to another application does not open there.
		other, err := s.Add(ctx, p, Input{Name: "Other", UserID: 7})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE application SET secret_enc = ? WHERE id = ?`, stored, other.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := s.Secrets(ctx, other.AppID); err == nil {
			t.Fatal("a secret sealed for another appId opened")
		}
		if _, _, _, err := s.Secrets(ctx, "appunknown"); !apperr.IsNotFound(err) {
			t.Fatalf("unknown appId: %v", err)
		}
		if _, err := s.Add(ctx, p, Input{Name: "Stranger", UserID: 8}); err == nil {
			t.Fatal("bound a user the caller may not manage")
		}
	})
}
