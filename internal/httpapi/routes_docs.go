package httpapi

// docsRoutes are the docs wiki (docs/docs-wiki.md). Categories and documents belong to a
// customer or to the platform, like device models (ByCustomer); documents carry read and write
// levels checked against the role's document level, and readers never see disabled documents.
// The console does not toast the detail call's errors: it shows its forbidden or not-found view.
func (s *Server) docsRoutes() []Route {
	sys := "/api/auth/sys/article/"
	read := []string{"auth_docs_home_list_all", "auth_docs_search", "auth_docs_detail", "auth_docs_list", "auth_docs_manage"}
	home := []string{"auth_docs_home_list_all"}
	search := []string{"auth_docs_search"}
	detail := []string{"auth_docs_detail", "auth_docs_manage", "auth_docs_edit", "auth_docs_content_edit"}
	list := []string{"auth_docs_list", "auth_docs_detail", "auth_docs_manage"}
	add := []string{"auth_docs_add"}
	edit := []string{"auth_docs_edit"}
	content := []string{"auth_docs_content_edit"}
	manage := []string{"auth_docs_manage"}
	category := []string{"auth_docs_category_manage"}
	return []Route{
		{Method: "GET", Path: sys + "home", Objects: ByCustomer, Access: Keys, Keys: home, Tag: "docs", Summary: "Docs home: categories, recently changed documents, counts per type", Handler: H(s.docsHome)},
		{Method: "POST", Path: sys + "search", Objects: ByCustomer, Access: Keys, Keys: search, Reads: true, Tag: "docs", Summary: "Full-text search over title and content (every word must match; ranked; <mark> highlights)", Handler: H(s.docsSearch)},
		{Method: "POST", Path: sys + "list", Objects: ByCustomer, Access: Keys, Keys: list, Tag: "docs", Summary: "Documents the caller may read (title, type, category, status; paged)", Handler: H(s.docsList)},
		{Method: "GET", Path: sys + "detail", Objects: ByCustomer, Access: Keys, Keys: detail, Tag: "docs", Summary: "One document with its content (errors are shown as a page, not a message)", Handler: H(s.docsDetail)},
		{Method: "POST", Path: sys + "add", Objects: ByCustomer, Access: Keys, Keys: add, Tag: "docs", Summary: "Add a document (properties, optional first content)", Handler: H(s.docsAdd)},
		{Method: "POST", Path: sys + "update", Objects: ByCustomer, Access: Keys, Keys: edit, Tag: "docs", Summary: "Change a document's properties", Handler: H(s.docsUpdate)},
		{Method: "POST", Path: sys + "content", Objects: ByCustomer, Access: Keys, Keys: content, Tag: "docs", Summary: "Save a document's content (sanitised; ends the caller's draft)", Handler: H(s.docsContent)},
		{Method: "POST", Path: sys + "status", Objects: ByCustomer, Access: Keys, Keys: manage, Tag: "docs", Summary: "Enable (1) or disable (0) documents", Handler: H(s.docsStatus)},
		{Method: "POST", Path: sys + "delete", Objects: ByCustomer, Access: Keys, Keys: manage, Tag: "docs", Summary: "Delete documents", Handler: H(s.docsDelete)},
		{Method: "GET", Path: sys + "category/list", Objects: ByCustomer, Access: Keys, Keys: append(read, category...), Tag: "docs", Summary: "Categories the caller may read, with their document counts", Handler: H(s.docsCategories)},
		{Method: "POST", Path: sys + "category/add", Objects: ByCustomer, Access: Keys, Keys: category, Tag: "docs", Summary: "Add a category (name, description, icon of kind icon)", Handler: H(s.docsCategoryAdd)},
		{Method: "POST", Path: sys + "category/update", Objects: ByCustomer, Access: Keys, Keys: category, Tag: "docs", Summary: "Change a category", Handler: H(s.docsCategoryUpdate)},
		{Method: "POST", Path: sys + "category/delete", Objects: ByCustomer, Access: Keys, Keys: category, Tag: "docs", Summary: "Delete empty categories", Handler: H(s.docsCategoryDelete)},
		{Method: "GET", Path: sys + "draft/get", Objects: ByCustomer, Access: Keys, Keys: content, Tag: "docs", Summary: "The caller's autosaved draft of a document (kept 2 minutes after leaving the editor)", Handler: H(s.docsDraftGet)},
		{Method: "POST", Path: sys + "draft/save", Objects: ByCustomer, Access: Keys, Keys: content, Tag: "docs", Summary: "Autosave the caller's draft of a document (leave: the editor is being left)", Handler: H(s.docsDraftSave)},
		{Method: "POST", Path: sys + "draft/delete", Objects: ByCustomer, Access: Keys, Keys: content, Tag: "docs", Summary: "Discard the caller's draft of a document", Handler: H(s.docsDraftDelete)},
	}
}
