package demo

import (
	"context"
	"fmt"

	"chargeops/internal/app"
	"chargeops/internal/db"
)

// accountNames are the demo users Seed creates (seedUsers), in the order they are printed.
// TestSignInsListTheSeededAccounts keeps the two in step.
var accountNames = []string{"platform_admin", "sz_staff", "hk_staff", "futian_admin", "hk_engineer"}

// userEnabled is app_user.status of an account that may sign in.
const userEnabled = 1

// SignIns answers what a (re)started demo prints: whether the super admin rootName still
// exists, and the demo accounts that still exist and may sign in, with their role's name now.
func SignIns(ctx context.Context, a *app.App, rootName string) (rootExists bool, accounts []Account, err error) {
	names := make([]any, len(accountNames))
	for i, n := range accountNames {
		names[i] = n
	}
	q := (&db.Query{From: "app_user u LEFT JOIN role r ON r.id = u.role_id"}).
		And("u.status = ?", userEnabled).
		And("(u.user_name = ? AND u.root = ? OR u.user_name IN ("+db.Placeholders(len(names))+"))", append([]any{rootName, db.BoolInt(true)}, names...)...)
	found, err := db.All(ctx, a.DB, q, "u.user_name, COALESCE(r.name, '')", "u.id", len(names)+1, 0, func(r db.Scanner) (Account, error) {
		var acc Account
		return acc, r.Scan(&acc.UserName, &acc.Role)
	})
	if err != nil {
		return false, nil, fmt.Errorf("demo: sign-ins: %w", err)
	}
	byName := map[string]Account{}
	for _, acc := range found {
		byName[acc.UserName] = acc
	}
	_, rootExists = byName[rootName]
	for _, n := range accountNames {
		if acc, ok := byName[n]; ok && n != rootName {
			accounts = append(accounts, acc)
		}
	}
	return rootExists, accounts, nil
}
