package access

// UserCond limits rows of the user table (alias u) to the users p may see: users of customers
// in scope; platform users (customer 0) only for a caller who sees every customer; root accounts
// only for root. Everything that shows who did what (users, action log) filters by it.
func (p *Principal) UserCond(alias string) (string, []any) {
	if p.Root {
		return "1 = 1", nil
	}
	cond, args := "1 = 1", []any(nil)
	if !p.Scope.AllCustomers {
		cond, args = p.Scope.CustomerCond(alias + ".customer_id")
	}
	return "(" + alias + ".root = 0 AND " + cond + ")", args
}

// UserRowsCond limits rows that name a user by id (column col, 0 for a caller nobody knows,
// such as a failed sign-in with an unknown name) to those of users p may see. Rows of unknown
// callers are platform data: only a caller who sees every customer reads them.
func (p *Principal) UserRowsCond(col string) (string, []any) {
	if p.Root {
		return "1 = 1", nil
	}
	cond, args := p.UserCond("u")
	sub := col + " IN (SELECT u.id FROM app_user u WHERE " + cond + ")"
	if p.Scope.AllCustomers {
		sub = "(" + sub + " OR " + col + " = 0)"
	}
	return sub, args
}
