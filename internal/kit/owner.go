package kit

import (
	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

// The ownership rule of rows owned by a customer or by the platform: device models
// (docs/decisions.md#device-models) and the docs wiki's categories and documents
// (docs/docs-wiki.md).

// PlatformOwner is the customer column of a platform row.
const PlatformOwner int64 = 0

// Visible limits rows (by their customer column col) to those p may read: platform rows and the
// rows of customers in scope.
func Visible(p *access.Principal, col string) (string, []any) {
	if p.Root || p.Scope.AllCustomers {
		return "1 = 1", nil
	}
	cond, args := p.Scope.CustomerCond(col)
	return "(" + col + " = ? OR " + cond + ")", append([]any{PlatformOwner}, args...)
}

// MayRead reports whether p reads the rows of owner (Visible for one row).
func MayRead(p *access.Principal, owner int64) bool {
	return owner == PlatformOwner || p.Root || p.Scope.HasCustomer(owner)
}

// Ownership is who changes owned rows; each package that owns rows this way declares its one.
type Ownership struct {
	// Platform refuses a change to a platform row by a caller without the unlimited scope.
	Platform *apperr.Error
	// WholeCustomer: a customer's row changes only for a caller with all of that customer's
	// sites (a device model applies to every device that uses it), refused with Platform.
	WholeCustomer bool
	// ReadOnly: a read-only customer's users change nothing (apperr.ErrNoPermission).
	ReadOnly bool
}

// MayChange reports whether p may change the rows of owner: root always; a platform row needs
// the unlimited scope; a customer's row that customer in scope (not found otherwise).
func (o Ownership) MayChange(p *access.Principal, owner int64) error {
	if p.Root {
		return nil
	}
	if o.ReadOnly && p.ReadOnly {
		return apperr.ErrNoPermission
	}
	if owner == PlatformOwner {
		if !p.Scope.Everything() {
			return o.Platform
		}
		return nil
	}
	if !p.Scope.HasCustomer(owner) {
		return apperr.ErrNotFound
	}
	if o.WholeCustomer && !p.Scope.AllSites {
		return o.Platform
	}
	return nil
}

// MayChangeAll checks a batch: every one of want rows found (owners holds their owners), and
// every one changeable by p. A missing or unreadable one makes the batch not found.
func (o Ownership) MayChangeAll(p *access.Principal, owners []int64, want int) error {
	if len(owners) < want {
		return apperr.ErrNotFound
	}
	for _, owner := range owners {
		if !MayRead(p, owner) {
			return apperr.ErrNotFound
		}
	}
	for _, owner := range owners {
		if err := o.MayChange(p, owner); err != nil {
			return err
		}
	}
	return nil
}

// OwnerFor is the owner of a new row: customerID as asked when p may use it; the platform asked
// by a caller limited to some customers means its own customer.
func (o Ownership) OwnerFor(p *access.Principal, customerID int64) (int64, error) {
	if customerID == PlatformOwner && !p.Root && !p.Scope.Everything() {
		customerID = p.CustomerID
	}
	if customerID != PlatformOwner && !p.Root && !p.Scope.HasCustomer(customerID) {
		return 0, apperr.ErrNotFound
	}
	return customerID, o.MayChange(p, customerID)
}
