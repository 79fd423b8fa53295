package httpapi

// storageRoutes are the object-storage endpoints (docs/storage.md): upload targets and signed
// links for any signed-in user, scoped by the customer of the upload's record, and the local
// back-end's signed object URLs, whose signature is the authority.
func (s *Server) storageRoutes() []Route {
	return []Route{
		{Method: "GET", Path: "/api/auth/sys/system/oss/sts/write", Objects: ByCustomer, Access: Session, Tag: "storage", Summary: "Upload credential: a new object key and its signed upload target (valid 3600 s)", Handler: H(s.ossWrite)},
		{Method: "POST", Path: "/api/auth/sys/system/oss/confirm", Objects: ByCustomer, Access: Session, Tag: "storage", Summary: "Check an uploaded object (size, content) and record it; a refused object is deleted", Handler: H(s.ossConfirm)},
		{Method: "GET", Path: "/api/auth/sys/system/oss/sts/read", Objects: ByCustomer, Access: Session, Tag: "storage", Summary: "Signed download URLs of objects (objectKey repeated, at most 100)", Handler: H(s.ossRead)},
		{Method: "GET", Path: "/api/auth/sys/system/oss/url", Objects: ByCustomer, Access: Session, Tag: "storage", Summary: "Display URL of an objectKey (http(s) and data: URLs as they are)", Handler: H(s.ossURL)},
		{Method: "PUT", Path: "/api/unauth/oss/object/{key...}", Objects: NoObjects, Why: "the HMAC signature of the URL, made by oss/sts/write for one key, is the authority", Access: Public, RawBody: true, Tag: "storage", Summary: "Local storage: signed upload of one object (raw body)", Handler: s.ossObjectPut()},
		{Method: "GET", Path: "/api/unauth/oss/object/{key...}", Objects: NoObjects, Why: "the HMAC signature of the URL, made for a reader of the object, is the authority", Access: Public, Tag: "storage", Summary: "Local storage: signed download of one object", Handler: s.ossObjectGet()},
	}
}
