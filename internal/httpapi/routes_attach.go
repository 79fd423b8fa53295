package httpapi

// attachRoutes are the attachments screen and file shares (docs/attachments.md). Folders and
// files belong to a customer (ByCustomer) and carry read/write/download levels checked against
// the role's attachment level; the signed-out share calls act only through a share's 128-bit
// token and its access code.
func (s *Server) attachRoutes() []Route {
	files := []string{"auth_attach"}
	tree := []string{"auth_attach_tree"}
	both := []string{"auth_attach", "auth_attach_tree"}
	sys := "/api/auth/sys/attach/"
	token := "a share's 128-bit random token (and its access code) is the authority; unknown tokens answer as expired"
	return []Route{
		{Method: "GET", Path: sys + "folder/tree", Objects: ByCustomer, Access: Keys, Keys: both, Tag: "attach", Summary: "Folder tree: the folders the caller may read, nested", Handler: H(s.attachTree)},
		{Method: "POST", Path: sys + "folder/add", Objects: ByCustomer, Access: Keys, Keys: tree, Tag: "attach", Summary: "Add a folder (levels never lower than the parent's)", Handler: H(s.attachFolderAdd)},
		{Method: "POST", Path: sys + "folder/update", Objects: ByCustomer, Access: Keys, Keys: tree, Tag: "attach", Summary: "Rename a folder and set its levels (content raised to them)", Handler: H(s.attachFolderUpdate)},
		{Method: "POST", Path: sys + "folder/delete", Objects: ByCustomer, Access: Keys, Keys: tree, Tag: "attach", Summary: "Delete an empty folder", Handler: H(s.attachFolderDelete)},
		{Method: "POST", Path: sys + "file/list", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Files the caller may read (folder, name part; paged)", Handler: H(s.attachList)},
		{Method: "GET", Path: sys + "file/detail", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "One file", Handler: H(s.attachDetail)},
		{Method: "POST", Path: sys + "file/add", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Register the caller's confirmed upload (objectKey) as a file of a folder", Handler: H(s.attachAdd)},
		{Method: "POST", Path: sys + "file/update", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Change a file's name, description and levels", Handler: H(s.attachUpdate)},
		{Method: "POST", Path: sys + "file/move", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Move files into a folder (levels raised to the folder's)", Handler: H(s.attachMove)},
		{Method: "POST", Path: sys + "file/delete", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Delete files, their shares and objects", Handler: H(s.attachDelete)},
		{Method: "GET", Path: sys + "file/url", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Signed download link of a file (3600 s, under the file's name)", Handler: H(s.attachURL)},
		{Method: "POST", Path: sys + "share/add", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Share a file: validity 1|7|30|0 (permanent)|custom days, 4-digit code (or generated)", Handler: H(s.shareAdd)},
		{Method: "POST", Path: sys + "share/list", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Shares of a file", Handler: H(s.shareList)},
		{Method: "POST", Path: sys + "share/reset", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Unlock a share with a new code (the link stays)", Handler: H(s.shareReset)},
		{Method: "POST", Path: sys + "share/delete", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "End a share", Handler: H(s.shareDelete)},
		{Method: "POST", Path: sys + "share/log/list", Objects: ByCustomer, Access: Keys, Keys: files, Tag: "attach", Summary: "Signed-out accesses of a share, newest first (at most 200)", Handler: H(s.shareLog)},

		{Method: "POST", Path: "/api/unauth/share/info", Objects: NoObjects, Why: token, Access: Public, Reads: true, Tag: "attach", Summary: "Shared file's name, size, expiry and lock (signed out)", Handler: H(s.sharePublicInfo)},
		{Method: "POST", Path: "/api/unauth/share/download", Objects: NoObjects, Why: token, Access: Public, Tag: "attach", Summary: "Signed download link of a shared file for its code (5 wrong codes lock the share)", Handler: H(s.sharePublicDownload)},
		{Method: "GET", Path: "/api/unauth/oss/sts/read", Objects: NoObjects, Why: token, Access: Public, Tag: "attach", Summary: "Signed-out read: the signed URL of a share's file for {token, code}", Handler: H(s.ossPublicRead)},
		{Method: "GET", Path: "/api/unauth/oss/sts/write", Objects: NoObjects, Why: "refuses every call: no signed-out page uploads", Access: Public, Tag: "attach", Summary: "Signed-out upload credential: always refused", Handler: H(s.ossPublicWrite)},
	}
}
