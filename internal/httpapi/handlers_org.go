package httpapi

import (
	"encoding/base64"

	"chargeops/internal/apperr"
	"chargeops/internal/catalogue"
	"chargeops/internal/customer"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devmodel"
	"chargeops/internal/menu"
	"chargeops/internal/site"
)

// Customers.

func (s *Server) customerList(c *Ctx, in customer.ListFilter) (db.List[customer.Customer], error) {
	return s.Customers.List(c, c.P.Scope, in)
}
func (s *Server) customerDetail(c *Ctx, in IDInput) (customer.Customer, error) {
	return s.Customers.Get(c, c.P.Scope, in.ID)
}
func (s *Server) customerAdd(c *Ctx, in customer.Input) (IDAnswer, error) {
	id, err := s.Customers.Add(c, c.P.Scope, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) customerUpdate(c *Ctx, in customer.Input) (*Empty, error) {
	return nil, s.Customers.Update(c, c.P.Scope, in)
}
func (s *Server) customerDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Customers.Delete(c, c.P.Scope, in.IDs)
}
func (s *Server) customerOptions(c *Ctx, _ Empty) ([]customer.Option, error) {
	return s.Customers.Options(c, c.P.Scope)
}

// Sites.

func (s *Server) siteList(c *Ctx, in site.ListFilter) (db.List[site.Site], error) {
	return s.Sites.List(c, c.P.Scope, in)
}
func (s *Server) siteDetail(c *Ctx, in IDInput) (site.Site, error) {
	return s.Sites.Get(c, c.P.Scope, in.ID)
}
func (s *Server) siteAdd(c *Ctx, in site.Input) (IDAnswer, error) {
	id, err := s.Sites.Add(c, c.P.Scope, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) siteUpdate(c *Ctx, in site.Input) (*Empty, error) {
	return nil, s.Sites.Update(c, c.P.Scope, in)
}
func (s *Server) siteStatus(c *Ctx, in StatusInput) (*Empty, error) {
	return nil, s.Sites.SetStatus(c, c.P.Scope, in.IDs, in.Status)
}
func (s *Server) siteDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Sites.Delete(c, c.P.Scope, in.IDs)
}
func (s *Server) siteOverview(c *Ctx, in IDInput) (site.Overview, error) {
	return s.Sites.OverviewOf(c, c.P.Scope, in.ID)
}

// SiteOptionsInput narrows site options to a customer.
type SiteOptionsInput struct {
	CustomerID int64 `json:"customerId"`
}

func (s *Server) siteOptions(c *Ctx, in SiteOptionsInput) ([]site.Option, error) {
	return s.Sites.Options(c, c.P.Scope, in.CustomerID)
}

// Device models.

func (s *Server) modelList(c *Ctx, in devmodel.ListFilter) (db.List[devmodel.Model], error) {
	return s.Models.List(c, in)
}
func (s *Server) modelDetail(c *Ctx, in IDInput) (devmodel.Model, error) {
	return s.Models.Get(c, in.ID)
}
func (s *Server) modelAdd(c *Ctx, in devmodel.Input) (IDAnswer, error) {
	id, err := s.Models.Add(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) modelUpdate(c *Ctx, in devmodel.Input) (*Empty, error) {
	return nil, s.Models.Update(c, in)
}
func (s *Server) modelDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.Delete(c, in.IDs)
}
func (s *Server) modelItems(c *Ctx, in devmodel.ItemFilter) ([]devmodel.Item, error) {
	return s.Models.Items(c, in)
}
func (s *Server) modelItemAdd(c *Ctx, in devmodel.Item) (IDAnswer, error) {
	id, err := s.Models.AddItem(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) modelItemUpdate(c *Ctx, in devmodel.Item) (*Empty, error) {
	return nil, s.Models.UpdateItem(c, in)
}
func (s *Server) modelItemDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.DeleteItems(c, in.IDs)
}
func (s *Server) aliasList(c *Ctx, in devmodel.AliasFilter) (db.List[devmodel.Alias], error) {
	return s.Models.Aliases(c, in)
}
func (s *Server) aliasAdd(c *Ctx, in devmodel.AliasInput) (IDAnswer, error) {
	id, err := s.Models.AddAlias(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) aliasDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.DeleteAliases(c, in.IDs)
}

// Data catalogue.

func (s *Server) dataGroupList(c *Ctx, in catalogue.GroupFilter) (db.List[catalogue.Group], error) {
	return s.Catalogue.Groups(c, in)
}
func (s *Server) dataGroupAdd(c *Ctx, in catalogue.GroupInput) (IDAnswer, error) {
	id, err := s.Catalogue.AddGroup(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) dataGroupUpdate(c *Ctx, in catalogue.GroupInput) (*Empty, error) {
	return nil, s.Catalogue.UpdateGroup(c, in)
}
func (s *Server) dataGroupDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Catalogue.DeleteGroups(c, in.IDs)
}
func (s *Server) dataItemList(c *Ctx, in catalogue.ItemFilter) (db.List[catalogue.Item], error) {
	return s.Catalogue.Items(c, in)
}
func (s *Server) dataItemAdd(c *Ctx, in catalogue.ItemInput) (IDAnswer, error) {
	id, err := s.Catalogue.AddItem(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) dataItemUpdate(c *Ctx, in catalogue.ItemInput) (*Empty, error) {
	return nil, s.Catalogue.UpdateItem(c, in)
}
func (s *Server) dataItemDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Catalogue.DeleteItems(c, in.IDs)
}

// Devices.

func (s *Server) deviceList(c *Ctx, in device.ListFilter) (device.List, error) {
	return s.Devices.List(c, c.P.Scope, in)
}
func (s *Server) deviceDetail(c *Ctx, in IDInput) (device.Device, error) {
	return s.Devices.Get(c, c.P.Scope, in.ID)
}
func (s *Server) deviceAdd(c *Ctx, in device.Input) (IDAnswer, error) {
	id, err := s.Devices.Add(c, c.P.Scope, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) deviceUpdate(c *Ctx, in device.Input) (*Empty, error) {
	return nil, s.Devices.Update(c, c.P.Scope, in)
}
func (s *Server) deviceDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Devices.Delete(c, c.P.Scope, in.IDs)
}

// EnableInput enables or disables objects.
type EnableInput struct {
	IDs     []int64 `json:"ids"`
	Enabled bool    `json:"enabled"`
}

func (in EnableInput) validate() error { return checkIDs(in.IDs) }

func (s *Server) deviceEnable(c *Ctx, in EnableInput) (*Empty, error) {
	return nil, s.Devices.SetEnabled(c, c.P.Scope, in.IDs, in.Enabled)
}

// MaintainInput puts devices into maintenance mode (on) or takes them out.
type MaintainInput struct {
	IDs []int64 `json:"ids"`
	On  bool    `json:"on"`
}

func (in MaintainInput) validate() error { return checkIDs(in.IDs) }

func (s *Server) deviceMaintain(c *Ctx, in MaintainInput) (*Empty, error) {
	return nil, s.Devices.SetMaintainMode(c, c.P.Scope, in.IDs, in.On)
}
func (s *Server) deviceMaintained(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Devices.Maintained(c, c.P.Scope, in.IDs)
}
func (s *Server) deviceStatusCounts(c *Ctx, _ Empty) (map[int]int64, error) {
	return s.Devices.StatusCounts(c, c.P.Scope)
}

// FileInput carries an uploaded file as base64 (JSON API; the body limit of the route applies).
type FileInput struct {
	FileName string `json:"fileName"`
	Content  string `json:"content"`
}

func (s *Server) deviceImport(c *Ctx, in FileInput) (device.ImportResult, error) {
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return device.ImportResult{}, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	return s.Devices.Import(c, c.P.Scope, c.Locale, raw)
}

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

func (s *Server) deviceTemplate(c *Ctx, _ Empty) (*File, error) {
	b, err := device.Template(c.Locale)
	return &File{Name: "device-import-template.xlsx", ContentType: xlsxType, Body: b}, err
}

func (s *Server) deviceExport(c *Ctx, in device.ListFilter) (*File, error) {
	b, err := s.Devices.Export(c, c.P.Scope, c.Locale, in)
	return &File{Name: "devices.xlsx", ContentType: xlsxType, Body: b}, err
}

// Menus and interfaces.

func (s *Server) menuTree(c *Ctx, _ Empty) ([]*menu.Menu, error) { return s.Menus.Tree(c) }
func (s *Server) menuAdd(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.AddMenu(c, in)
}
func (s *Server) menuUpdate(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.UpdateMenu(c, in)
}

// KeyInput names a menu.
type KeyInput struct {
	Key string `json:"key"`
}

func (s *Server) menuDelete(c *Ctx, in KeyInput) (*Empty, error) {
	return nil, s.Menus.DeleteMenu(c, in.Key)
}
func (s *Server) interfaceList(c *Ctx, in menu.InterfaceFilter) (db.List[menu.Interface], error) {
	return s.Menus.Interfaces(c, in)
}
func (s *Server) interfaceSave(c *Ctx, in menu.Interface) (IDAnswer, error) {
	id, err := s.Menus.SaveInterface(c, in)
	return IDAnswer{ID: id}, err
}
func (s *Server) interfaceDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Menus.DeleteInterfaces(c, in.IDs)
}
