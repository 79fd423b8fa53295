package attach

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"regexp"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/session"
)

// Share rules (docs/attachments.md, "Shares").
const (
	MaxWrongCodes  = 5    // wrong codes before a share locks until its owner resets it
	MaxCustomDays  = 3650 // longest custom validity
	sharesPerFile  = 100
	publicPerAddr  = 60 // signed-out share calls per client address per window
	publicWindow   = 5 * time.Minute
	shareLogOK     = "ok"
	shareLogWrong  = "wrong_code"
	shareLogLocked = "locked"
	shareLogGone   = "expired"
	shareLogNone   = "unknown"
)

var (
	// ErrShareExpired is the spec's 'file sharing has expired' (also for an unknown link, so
	// the answer never tells which tokens exist).
	ErrShareExpired = apperr.New(apperr.NotFound, "err.share_expired")
	errShareLocked  = apperr.New(apperr.Conflict, "err.share_locked")
	errWrongCode    = apperr.New(apperr.Invalid, "err.share_code_wrong")
	// ErrPublicUpload refuses signed-out uploads (no signed-out page uploads).
	ErrPublicUpload = apperr.New(apperr.NoPermission, "err.share_no_upload")
	codePattern     = regexp.MustCompile(`^[0-9]{4}$`)
)

// Share is a share of a file as its owner sees it (the token and code are shown only when made
// or reset).
type Share struct {
	ID         int64  `json:"id"`
	FileID     int64  `json:"fileId"`
	ExpiresAt  int64  `json:"expiresAt"` // 0: permanent
	Permanent  bool   `json:"permanent"`
	Expired    bool   `json:"expired"`
	WrongCodes int    `json:"wrongCodes"`
	Locked     bool   `json:"locked"`
	CreatedBy  int64  `json:"createdBy"`
	Creator    string `json:"creatorName"`
	CreatedAt  int64  `json:"createdAt"`
	Accesses   int64  `json:"accesses"`
}

// ShareInput makes a share: validity 1, 7, 30 days, 0 permanent, or custom days (1-3650); code
// 4 digits ("" generates one).
type ShareInput struct {
	FileID   int64  `json:"fileId"`
	Validity *int   `json:"validity"`
	Code     string `json:"code"`
	// Origin is set by the HTTP layer: the console's origin the link is built on.
	Origin string `json:"-"`
}

// Made is a new share (or a reset one): the link, its token and the code.
type Made struct {
	ID        int64  `json:"id"`
	URL       string `json:"url"`
	Token     string `json:"token"`
	Code      string `json:"code"`
	ExpiresAt int64  `json:"expiresAt"`
}

// hashCode hashes a code with the share's random salt.
func hashCode(salt, code string) string {
	h := sha256.Sum256([]byte("share-code:" + salt + ":" + code))
	return hex.EncodeToString(h[:])
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func pickCode(code string) (string, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		n, err := rand.Int(rand.Reader, big.NewInt(10000))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%04d", n.Int64()), nil
	}
	if !codePattern.MatchString(code) {
		return "", apperr.InvalidField("code", "err.share_code_format")
	}
	return code, nil
}

// ShareURL is the page a share opens on.
func ShareURL(origin, token string) string {
	return strings.TrimRight(origin, "/") + "/share/file?token=" + token
}

// downloadable reads a file the caller may share (download level).
func (s *Service) downloadable(ctx context.Context, p *access.Principal, id int64) (*File, error) {
	x, err := s.file(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if !x.Downloadable || !access.CanUseAttachment(p, x.folder.DownloadLevel) {
		return nil, apperr.ErrNoPermission
	}
	return x, nil
}

// AddShare shares a file the caller may download.
func (s *Service) AddShare(ctx context.Context, p *access.Principal, in ShareInput) (Made, error) {
	if in.Validity == nil {
		return Made{}, apperr.InvalidField("validity", "err.required")
	}
	days := *in.Validity
	if days < 0 || days > MaxCustomDays {
		return Made{}, apperr.InvalidField("validity", "err.invalid")
	}
	code, err := pickCode(in.Code)
	if err != nil {
		return Made{}, err
	}
	x, err := s.downloadable(ctx, p, in.FileID)
	if err != nil {
		return Made{}, err
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM attach_share WHERE file_id = ?`, x.ID).Scan(&n); err != nil {
		return Made{}, err
	}
	if n >= sharesPerFile {
		return Made{}, apperr.New(apperr.Conflict, "err.share_too_many").With(map[string]any{"max": sharesPerFile})
	}
	var expires int64
	if days > 0 {
		expires = time.Now().Add(time.Duration(days) * 24 * time.Hour).UnixMilli()
	}
	token, salt := newToken(), newToken()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO attach_share (file_id, token_hash, code_salt, code_hash, expires_at, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		x.ID, session.HashToken(token), salt, hashCode(salt, code), expires, p.UserID, db.NowMS())
	if err != nil {
		return Made{}, fmt.Errorf("attach: share: %w", err)
	}
	return Made{ID: id, URL: ShareURL(in.Origin, token), Token: token, Code: code, ExpiresAt: expires}, nil
}

// Shares lists a file's shares (for a caller who may download the file), newest first.
func (s *Service) Shares(ctx context.Context, p *access.Principal, fileID int64) ([]Share, error) {
	x, err := s.downloadable(ctx, p, fileID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT s.id, s.file_id, s.expires_at, s.wrong_codes, s.locked, s.created_by, COALESCE(u.user_name, ''), s.created_at,
		(SELECT COUNT(*) FROM attach_share_log l WHERE l.share_id = s.id)
		FROM attach_share s LEFT JOIN app_user u ON u.id = s.created_by WHERE s.file_id = ? ORDER BY s.id DESC LIMIT ?`, x.ID, sharesPerFile)
	if err != nil {
		return nil, fmt.Errorf("attach: shares: %w", err)
	}
	defer rows.Close()
	out := []Share{}
	now := db.NowMS()
	for rows.Next() {
		var sh Share
		var locked int
		if err := rows.Scan(&sh.ID, &sh.FileID, &sh.ExpiresAt, &sh.WrongCodes, &locked, &sh.CreatedBy, &sh.Creator, &sh.CreatedAt, &sh.Accesses); err != nil {
			return nil, err
		}
		sh.Locked, sh.Permanent = locked == 1, sh.ExpiresAt == 0
		sh.Expired = !sh.Permanent && sh.ExpiresAt <= now
		out = append(out, sh)
	}
	return out, rows.Err()
}

// ownedShare reads a share the caller may reset or delete: its creator, the file's creator,
// or a writer of the file.
func (s *Service) ownedShare(ctx context.Context, p *access.Principal, id int64) (int64, error) {
	var fileID, createdBy int64
	err := s.db.QueryRow(ctx, `SELECT file_id, created_by FROM attach_share WHERE id = ?`, id).Scan(&fileID, &createdBy)
	if db.NotFound(err) {
		return 0, apperr.ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	x, err := s.file(ctx, p, fileID)
	if err != nil {
		return 0, err
	}
	if createdBy != p.UserID && x.CreatedBy != p.UserID && !(x.Writable && access.CanUseAttachment(p, x.folder.WriteLevel)) {
		return 0, apperr.ErrNoPermission
	}
	return fileID, nil
}

// ResetInput unlocks a share with a new code ("" generates one); the link stays the same.
type ResetInput struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

// ResetShare unlocks a share and gives it a new code; its link does not change (the answer
// carries no URL or token: only their hash is kept).
func (s *Service) ResetShare(ctx context.Context, p *access.Principal, in ResetInput) (Made, error) {
	code, err := pickCode(in.Code)
	if err != nil {
		return Made{}, err
	}
	if _, err := s.ownedShare(ctx, p, in.ID); err != nil {
		return Made{}, err
	}
	salt := newToken()
	var expires int64
	if err := s.db.QueryRow(ctx, `SELECT expires_at FROM attach_share WHERE id = ?`, in.ID).Scan(&expires); err != nil {
		return Made{}, err
	}
	if _, err := s.db.Exec(ctx, `UPDATE attach_share SET code_salt = ?, code_hash = ?, wrong_codes = 0, locked = 0 WHERE id = ?`,
		salt, hashCode(salt, code), in.ID); err != nil {
		return Made{}, fmt.Errorf("attach: reset share: %w", err)
	}
	return Made{ID: in.ID, Code: code, ExpiresAt: expires}, nil
}

// DeleteShare ends a share.
func (s *Service) DeleteShare(ctx context.Context, p *access.Principal, id int64) error {
	if _, err := s.ownedShare(ctx, p, id); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `DELETE FROM attach_share WHERE id = ?`, id)
	return err
}

// PublicInfo is what the share page shows before the code.
type PublicInfo struct {
	Name      string `json:"name"`
	Size      int64  `json:"size"`
	ExpiresAt int64  `json:"expiresAt"` // 0: permanent
	Locked    bool   `json:"locked"`
}

type shared struct {
	id, fileID, expires int64
	codeSalt, codeHash  string
	locked              bool
}

// allowPublic counts one signed-out share call of a client address.
func (s *Service) allowPublic(ctx context.Context, ip string) error {
	if s.limiter == nil {
		return nil
	}
	ok, err := s.limiter.Allow(ctx, "share:"+ip, publicPerAddr, publicWindow)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.ErrRateLimited
	}
	return nil
}

func (s *Service) logAccess(ctx context.Context, shareID int64, ip, action, result string) {
	if _, err := s.db.Exec(context.WithoutCancel(ctx), `INSERT INTO attach_share_log (share_id, at, client_ip, action, result) VALUES (?, ?, ?, ?, ?)`,
		shareID, db.NowMS(), ip, action, result); err != nil {
		slog.Warn("attach: share access log", "share", shareID, "err", err)
	}
}

// open finds a live share by token; an unknown or expired one is 'file sharing has expired'
// (logged).
func (s *Service) open(ctx context.Context, token, ip, action string) (shared, error) {
	var sh shared
	if err := s.allowPublic(ctx, ip); err != nil {
		return sh, err
	}
	token = strings.TrimSpace(token)
	var locked int
	err := s.db.QueryRow(ctx, `SELECT id, file_id, expires_at, code_salt, code_hash, locked FROM attach_share WHERE token_hash = ?`, session.HashToken(token)).
		Scan(&sh.id, &sh.fileID, &sh.expires, &sh.codeSalt, &sh.codeHash, &locked)
	if db.NotFound(err) || token == "" {
		s.logAccess(ctx, 0, ip, action, shareLogNone)
		return sh, ErrShareExpired
	}
	if err != nil {
		return sh, fmt.Errorf("attach: share: %w", err)
	}
	sh.locked = locked == 1
	if sh.expires != 0 && sh.expires <= db.NowMS() {
		s.logAccess(ctx, sh.id, ip, action, shareLogGone)
		return sh, ErrShareExpired
	}
	return sh, nil
}

func (s *Service) sharedFile(ctx context.Context, id int64) (*File, error) {
	x, err := scanFile(s.db.QueryRow(ctx, `SELECT `+fileCols+fileFrom+` WHERE a.id = ?`, id))
	if db.NotFound(err) {
		return nil, ErrShareExpired
	}
	return x, err
}

// Info is the share page's first call (signed out).
func (s *Service) Info(ctx context.Context, token, ip string) (PublicInfo, error) {
	sh, err := s.open(ctx, token, ip, "info")
	if err != nil {
		return PublicInfo{}, err
	}
	x, err := s.sharedFile(ctx, sh.fileID)
	if err != nil {
		return PublicInfo{}, err
	}
	result := shareLogOK
	if sh.locked {
		result = shareLogLocked
	}
	s.logAccess(ctx, sh.id, ip, "info", result)
	return PublicInfo{Name: x.Name, Size: x.Size, ExpiresAt: sh.expires, Locked: sh.locked}, nil
}

// Download checks the code and answers a signed link (3600 s) to the shared file. A wrong code
// counts; the fifth locks the share until its owner resets it. Every attempt is counted before
// its code is compared (claimAttempt), so a burst of guesses cannot compare more codes than the
// limit.
func (s *Service) Download(ctx context.Context, token, code, ip string) (Link, error) {
	sh, err := s.open(ctx, token, ip, "download")
	if err != nil {
		return Link{}, err
	}
	n, ok, err := s.claimAttempt(ctx, sh.id)
	if err != nil {
		return Link{}, err
	}
	if !ok {
		s.logAccess(ctx, sh.id, ip, "download", shareLogLocked)
		return Link{}, errShareLocked
	}
	if subtle.ConstantTimeCompare([]byte(hashCode(sh.codeSalt, strings.TrimSpace(code))), []byte(sh.codeHash)) != 1 {
		s.logAccess(ctx, sh.id, ip, "download", shareLogWrong)
		if n >= MaxWrongCodes {
			if _, err := s.db.Exec(ctx, `UPDATE attach_share SET locked = 1 WHERE id = ? AND wrong_codes >= ?`, sh.id, MaxWrongCodes); err != nil {
				return Link{}, fmt.Errorf("attach: lock share: %w", err)
			}
			return Link{}, errShareLocked
		}
		return Link{}, errWrongCode.With(map[string]any{"left": MaxWrongCodes - n})
	}
	// The right code: its attempt is given back.
	if _, err := s.db.Exec(ctx, `UPDATE attach_share SET wrong_codes = wrong_codes - 1 WHERE id = ? AND wrong_codes > 0`, sh.id); err != nil {
		return Link{}, fmt.Errorf("attach: count right code: %w", err)
	}
	x, err := s.sharedFile(ctx, sh.fileID)
	if err != nil {
		return Link{}, err
	}
	s.logAccess(ctx, sh.id, ip, "download", shareLogOK)
	return s.link(ctx, x)
}

// claimAttempt counts one code attempt on a share before its code is compared, in one atomic
// increment-and-read: at most MaxWrongCodes attempts are ever in hand, however many arrive
// at once on however many nodes. It answers the count with this attempt, and ok false when
// the share is locked or its attempts are spent.
func (s *Service) claimAttempt(ctx context.Context, shareID int64) (n int, ok bool, err error) {
	err = s.db.QueryRow(ctx, `UPDATE attach_share SET wrong_codes = wrong_codes + 1 WHERE id = ? AND locked = 0 AND wrong_codes < ? RETURNING wrong_codes`,
		shareID, MaxWrongCodes).Scan(&n)
	if db.NotFound(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("attach: count code attempt: %w", err)
	}
	return n, true, nil
}

// AccessLog is one signed-out access of a share.
type AccessLog struct {
	ShareID  int64  `json:"shareId"`
	At       int64  `json:"at"`
	ClientIP string `json:"clientIp"`
	Action   string `json:"action"`
	Result   string `json:"result"`
}

// AccessLog lists the newest accesses (at most 200) of a share the caller may manage.
func (s *Service) AccessLog(ctx context.Context, p *access.Principal, shareID int64) ([]AccessLog, error) {
	if _, err := s.ownedShare(ctx, p, shareID); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT share_id, at, client_ip, action, result FROM attach_share_log WHERE share_id = ? ORDER BY id DESC LIMIT 200`, shareID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []AccessLog{}
	for rows.Next() {
		var l AccessLog
		if err := rows.Scan(&l.ShareID, &l.At, &l.ClientIP, &l.Action, &l.Result); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// ShareLogKeep is how long a share's access log rows are kept.
const ShareLogKeep = 90 * 24 * time.Hour

// PurgeAccessLog deletes share access rows older than ShareLogKeep in bounded batches.
func (s *Service) PurgeAccessLog(ctx context.Context) (int64, error) {
	return db.Purge(ctx, s.db, "attach_share_log", "id", "at < ?", 20, time.Now().Add(-ShareLogKeep).UnixMilli())
}
