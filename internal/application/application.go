// Package application keeps the applications of the console (docs/applications.md): a
// third-party system that calls the API as its bound user, identified by a public appId and a
// secret. The secret is 32 random bytes (base64url), shown once when made, kept only encrypted
// (AES-256-GCM under a key derived from the node's secret setting); a rotation keeps the
// previous secret valid for a grace period. An application belongs to its bound user's customer
// and is scoped by it like any customer-owned object.
package application

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/storage"
	"chargeops/internal/user"
)

// Status values.
const (
	Disabled = 0
	Enabled  = 1
)

// DefaultGrace is how long a rotated-out secret stays valid.
const DefaultGrace = 24 * time.Hour

// SecretSetting is the setting whose value the encryption key is derived from: the node's
// secret that storage signs with (every node derives the same key).
const SecretSetting = storage.SecretSetting

// Secrets gives the node's secret setting (setting.Store.Secret).
type Secrets interface {
	Secret(ctx context.Context, key string) ([]byte, error)
}

// Users checks that the caller may bind a user (user.Service.Manageable).
type Users interface {
	Manageable(ctx context.Context, p *access.Principal, id int64) (user.User, error)
}

// Service keeps applications.
type Service struct {
	db       *db.DB
	settings Secrets
	users    Users
	uploads  *storage.Service // nil: icons are not checked or resolved (openapi command)
	// Grace is how long a rotated-out secret stays valid (DefaultGrace).
	Grace time.Duration
	// Now is the clock (time.Now; tests move it).
	Now func() time.Time
}

// New keeps applications in d; the key comes from settings, bound users are checked by users,
// icons are read through uploads.
func New(d *db.DB, settings Secrets, users Users, uploads *storage.Service) *Service {
	return &Service{db: d, settings: settings, users: users, uploads: uploads, Grace: DefaultGrace, Now: time.Now}
}

// App is an application as the API shows it: never its secret.
type App struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Status       int    `json:"status"`
	Description  string `json:"description"`
	Icon         string `json:"icon"`
	IconURL      string `json:"iconUrl"`
	UserID       int64  `json:"userId"`
	UserName     string `json:"userName"`
	CustomerID   int64  `json:"customerId"`
	CustomerName string `json:"customerName"`
	AppID        string `json:"appId"`
	// PrevExpiresAt: until when (ms) the rotated-out secret is still accepted; 0 none.
	PrevExpiresAt int64  `json:"prevExpiresAt"`
	InstalledAt   int64  `json:"installedAt"`
	CreatedBy     int64  `json:"createdBy"`
	CreatorName   string `json:"creatorName"`
	UpdatedAt     int64  `json:"updatedAt"`
}

const columns = `a.id, a.name, a.status, a.description, a.icon, a.user_id, COALESCE(u.user_name, ''), a.customer_id, COALESCE(c.name, ''),
	a.app_id, a.prev_expires_at, a.installed_at, a.created_by, COALESCE(cb.user_name, ''), a.updated_at`

const from = `application a LEFT JOIN app_user u ON u.id = a.user_id LEFT JOIN customer c ON c.id = a.customer_id LEFT JOIN app_user cb ON cb.id = a.created_by`

func scan(r db.Scanner) (App, error) {
	var a App
	err := r.Scan(&a.ID, &a.Name, &a.Status, &a.Description, &a.Icon, &a.UserID, &a.UserName, &a.CustomerID, &a.CustomerName,
		&a.AppID, &a.PrevExpiresAt, &a.InstalledAt, &a.CreatedBy, &a.CreatorName, &a.UpdatedAt)
	return a, err
}

// scoped limits applications to the caller's customers (platform users' applications, customer
// 0, only for a caller who sees every customer).
func scoped(p *access.Principal) *db.Query {
	q := &db.Query{From: from}
	cond, args := p.Scope.CustomerCond("a.customer_id")
	return q.And(cond, args...)
}

// ListFilter filters the application list.
type ListFilter struct {
	db.Page
	Name   string `json:"name"`
	Status *int   `json:"status"`
	Sort   string `json:"sort"`
}

var sortColumns = map[string]string{"name": "a.name", "installedAt": "a.installed_at", "createTime": "a.installed_at"}

// List is a page of the applications in scope.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[App], error) {
	q := scoped(p)
	if name := strings.TrimSpace(f.Name); name != "" {
		q.And(`a.name LIKE ? ESCAPE '\'`, db.Contains(name))
	}
	if f.Status != nil {
		q.And("a.status = ?", *f.Status)
	}
	l, err := db.Paged(ctx, s.db, q, columns, db.SortOrder(f.Sort, sortColumns, "a.installed_at DESC")+", a.id DESC", f.Page, scan)
	if err != nil {
		return l, fmt.Errorf("application: list: %w", err)
	}
	for i := range l.List {
		s.resolveIcon(ctx, p, &l.List[i])
	}
	return l, nil
}

// Detail is one application in scope.
func (s *Service) Detail(ctx context.Context, p *access.Principal, id int64) (App, error) {
	a, err := db.One(ctx, s.db, scoped(p).And("a.id = ?", id), columns, scan, apperr.ErrNotFound)
	if err != nil {
		return a, err
	}
	s.resolveIcon(ctx, p, &a)
	return a, nil
}

func (s *Service) resolveIcon(ctx context.Context, p *access.Principal, a *App) {
	if a.Icon == "" || s.uploads == nil {
		return
	}
	if u, err := s.uploads.URL(ctx, p, a.Icon); err == nil {
		a.IconURL = u
	}
}

// Input adds (ID 0) or changes an application.
type Input struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"`
	UserID      int64  `json:"userId"`
	Status      *int   `json:"status"` // nil: enabled on add, unchanged on update
}

// MaxDescription bounds the description (characters).
const MaxDescription = 500

// validate checks one rule per field, in the form's order, and answers the bound user.
func (s *Service) validate(ctx context.Context, p *access.Principal, in *Input) (user.User, error) {
	in.Name, in.Description, in.Icon = strings.TrimSpace(in.Name), strings.TrimSpace(in.Description), strings.TrimSpace(in.Icon)
	switch {
	case in.Name == "":
		return user.User{}, apperr.InvalidField("name", "err.required")
	case len([]rune(in.Name)) > 100:
		return user.User{}, apperr.New(apperr.Invalid, "err.app_name_long").With(map[string]any{"max": 100})
	case len([]rune(in.Description)) > MaxDescription:
		return user.User{}, apperr.New(apperr.Invalid, "err.app_description_long").With(map[string]any{"max": MaxDescription})
	case len(in.Icon) > 512:
		return user.User{}, apperr.InvalidField("icon", "err.invalid")
	case in.Status != nil && *in.Status != Enabled && *in.Status != Disabled:
		return user.User{}, apperr.InvalidField("status", "err.invalid")
	case in.UserID <= 0:
		return user.User{}, apperr.InvalidField("userId", "err.required")
	}
	if in.Icon != "" && s.uploads != nil {
		if u, err := s.uploads.URL(ctx, p, in.Icon); err != nil || u == "" {
			return user.User{}, apperr.InvalidField("icon", "err.invalid")
		}
	}
	u, err := s.users.Manageable(ctx, p, in.UserID)
	if err != nil {
		// Unknown, out of scope or stronger than the caller: the same answer, naming the field.
		var ae *apperr.Error
		if errors.As(err, &ae) && (ae.Code == apperr.NotFound || ae.Code == apperr.NoPermission) {
			return u, errUserInvalid
		}
		return u, err
	}
	if u.Root && !p.Root {
		return u, errUserInvalid
	}
	return u, nil
}

// Made is the answer of add and rotate: the only time the secret is shown.
type Made struct {
	ID        int64  `json:"id"`
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
	// PrevExpiresAt (rotate): until when (ms) the previous secret is still accepted.
	PrevExpiresAt int64 `json:"prevExpiresAt"`
}

// Add creates an application bound to a user the caller may manage, with a new appId and
// secret.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (Made, error) {
	u, err := s.validate(ctx, p, &in)
	if err != nil {
		return Made{}, err
	}
	status := Enabled
	if in.Status != nil {
		status = *in.Status
	}
	appID, err := newAppID()
	if err != nil {
		return Made{}, err
	}
	plain, err := newSecret()
	if err != nil {
		return Made{}, err
	}
	enc, err := s.seal(ctx, appID, plain)
	if err != nil {
		return Made{}, err
	}
	now := s.Now().UnixMilli()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO application (name, status, description, icon, user_id, customer_id, app_id, secret_enc, installed_at, created_by, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Name, status, in.Description, in.Icon, u.ID, u.CustomerID, appID, enc, now, p.UserID, now)
	if err != nil {
		return Made{}, fmt.Errorf("application: add: %w", err)
	}
	return Made{ID: id, AppID: appID, AppSecret: plain}, nil
}

// Update changes an application in scope; the bound user must be one the caller may manage
// (also when it stays: whoever changes an application could otherwise steer a stronger
// account's access).
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	old, err := s.Detail(ctx, p, in.ID)
	if err != nil {
		return err
	}
	u, err := s.validate(ctx, p, &in)
	if err != nil {
		return err
	}
	status := old.Status
	if in.Status != nil {
		status = *in.Status
	}
	_, err = s.db.Exec(ctx, `UPDATE application SET name = ?, description = ?, icon = ?, status = ?, user_id = ?, customer_id = ?, updated_at = ? WHERE id = ?`,
		in.Name, in.Description, in.Icon, status, u.ID, u.CustomerID, s.Now().UnixMilli(), in.ID)
	return err
}

// StatusInput enables or disables applications.
type StatusInput struct {
	IDs    []int64 `json:"ids"`
	Status int     `json:"status"`
}

// MaxIDs bounds one call on several applications.
const MaxIDs = 100

// inScope is the batch statement on applications in p's scope.
func inScope(p *access.Principal) kit.Batch {
	cond, args := p.Scope.CustomerCond("customer_id")
	return kit.Batch{Table: "application", Scope: cond, ScopeArgs: args}
}

// SetStatus enables or disables applications in scope (all or none).
func (s *Service) SetStatus(ctx context.Context, p *access.Principal, in StatusInput) error {
	if err := kit.IDs(in.IDs).CheckMax(MaxIDs); err != nil {
		return err
	}
	if in.Status != Enabled && in.Status != Disabled {
		return apperr.InvalidField("status", "err.invalid")
	}
	b := inScope(p)
	b.Set, b.SetArgs = "status = ?, updated_at = ?", []any{in.Status, s.Now().UnixMilli()}
	return kit.Wrap("application", "set status", b.Run(ctx, s.db, in.IDs))
}

// Delete removes applications in scope (all or none); their secrets stop working at once.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	if err := kit.IDs(ids).CheckMax(MaxIDs); err != nil {
		return err
	}
	return kit.Wrap("application", "delete", inScope(p).Run(ctx, s.db, ids))
}

// Rotate gives an application in scope a new secret; the current one becomes the previous one,
// accepted until the grace period ends (a secret rotated out earlier stops at once). The caller
// must be able to manage the bound user: the new secret acts as that user.
func (s *Service) Rotate(ctx context.Context, p *access.Principal, id int64) (Made, error) {
	a, err := s.Detail(ctx, p, id)
	if err != nil {
		return Made{}, err
	}
	if _, err := s.users.Manageable(ctx, p, a.UserID); err != nil {
		return Made{}, errUserInvalid
	}
	plain, err := newSecret()
	if err != nil {
		return Made{}, err
	}
	enc, err := s.seal(ctx, a.AppID, plain)
	if err != nil {
		return Made{}, err
	}
	now := s.Now()
	until := now.Add(s.Grace).UnixMilli()
	_, err = s.db.Exec(ctx, `UPDATE application SET prev_secret_enc = secret_enc, prev_expires_at = ?, secret_enc = ?, updated_at = ? WHERE id = ?`,
		until, enc, now.UnixMilli(), id)
	if err != nil {
		return Made{}, fmt.Errorf("application: rotate: %w", err)
	}
	return Made{ID: id, AppID: a.AppID, AppSecret: plain, PrevExpiresAt: until}, nil
}

// UserOption is a user an application may be bound to, for the form's select.
type UserOption struct {
	ID         int64  `json:"id"`
	UserName   string `json:"userName"`
	NickName   string `json:"nickName"`
	CustomerID int64  `json:"customerId"`
}

// UserOptionsInput filters the user select.
type UserOptionsInput struct {
	Name string `json:"name"`
}

// MaxUserOptions bounds one answer of the user select.
const MaxUserOptions = 100

// UserOptions lists users the caller sees (by name part), bounded; the save still checks that
// the caller may manage the chosen user.
func (s *Service) UserOptions(ctx context.Context, p *access.Principal, in UserOptionsInput) ([]UserOption, error) {
	cond, args := p.UserCond("u")
	q := (&db.Query{From: "app_user u"}).And(cond, args...)
	if name := strings.TrimSpace(in.Name); name != "" {
		like := db.Contains(name)
		q.And(`(u.user_name LIKE ? ESCAPE '\' OR u.nick_name LIKE ? ESCAPE '\')`, like, like)
	}
	return db.All(ctx, s.db, q, "u.id, u.user_name, u.nick_name, u.customer_id", "u.user_name", MaxUserOptions, 0, func(r db.Scanner) (UserOption, error) {
		var o UserOption
		err := r.Scan(&o.ID, &o.UserName, &o.NickName, &o.CustomerID)
		return o, err
	})
}

// Secrets is what a signature check needs (the OpenAPI, later): the application by its public
// appId, whatever its status (the caller refuses a disabled one), its current secret and the
// previous one while its grace period lasts (nil otherwise). An unknown appId is not found.
func (s *Service) Secrets(ctx context.Context, appID string) (App, []byte, []byte, error) {
	var curEnc, prevEnc string
	var a App
	err := s.db.QueryRow(ctx, `SELECT `+columns+`, a.secret_enc, a.prev_secret_enc FROM `+from+` WHERE a.app_id = ?`, appID).Scan(
		&a.ID, &a.Name, &a.Status, &a.Description, &a.Icon, &a.UserID, &a.UserName, &a.CustomerID, &a.CustomerName,
		&a.AppID, &a.PrevExpiresAt, &a.InstalledAt, &a.CreatedBy, &a.CreatorName, &a.UpdatedAt, &curEnc, &prevEnc)
	if db.NotFound(err) {
		return a, nil, nil, apperr.ErrNotFound
	}
	if err != nil {
		return a, nil, nil, fmt.Errorf("application: secrets: %w", err)
	}
	cur, err := s.open(ctx, a.AppID, curEnc)
	if err != nil {
		return a, nil, nil, err
	}
	var prev []byte
	if prevEnc != "" && a.PrevExpiresAt > s.Now().UnixMilli() {
		// A previous secret that does not open (sealed under an earlier node secret) is none.
		prev, _ = s.open(ctx, a.AppID, prevEnc)
	}
	return a, cur, prev, nil
}

// newAppID is a public id: "app" and 16 random bytes in hex.
func newAppID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "app" + hex.EncodeToString(b), nil
}

// newSecret is 32 random bytes, base64url without padding.
func newSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// keyInfo names the derived key: a key of its own, never the storage signing key itself.
const keyInfo = "chargeops application-secret v1"

func (s *Service) aead(ctx context.Context) (cipher.AEAD, error) {
	secret, err := s.settings.Secret(ctx, SecretSetting)
	if err != nil {
		return nil, fmt.Errorf("application: key: %w", err)
	}
	key, err := hkdf.Key(sha256.New, secret, nil, keyInfo, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sealPrefix marks the format of a stored secret: v1, nonce and ciphertext in base64url.
const sealPrefix = "v1:"

// seal encrypts a secret for the application appID (bound as additional data, so a secret
// copied to another row does not open).
func (s *Service) seal(ctx context.Context, appID, plain string) (string, error) {
	g, err := s.aead(ctx)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := g.Seal(nonce, nonce, []byte(plain), []byte(appID))
	return sealPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

func (s *Service) open(ctx context.Context, appID, enc string) ([]byte, error) {
	g, err := s.aead(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(enc, sealPrefix))
	if err != nil || !strings.HasPrefix(enc, sealPrefix) || len(raw) < g.NonceSize() {
		return nil, errors.New("application: stored secret unreadable")
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], []byte(appID))
	if err != nil {
		return nil, errors.New("application: stored secret does not open (node secret changed?)")
	}
	return plain, nil
}

// errUserInvalid refuses a bound user that is unknown, out of scope or stronger than the caller
// (one answer for all, naming the field).
var errUserInvalid = apperr.New(apperr.Invalid, "err.app_user_invalid").With(map[string]any{"field": "userId"})
