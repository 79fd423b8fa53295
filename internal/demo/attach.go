package demo

import (
	"bytes"
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/attach"
	"chargeops/internal/storage"
)

// demoFolders are the attachment folders every demo customer starts with, and their files.
var demoFolders = []struct {
	name   string
	levels attach.Levels
	files  []string
}{
	{"Manuals", attach.Levels{ReadLevel: 5, WriteLevel: 3, DownloadLevel: 5}, []string{"DC charger installation guide.pdf", "AC wallbox quick start.pdf"}},
	{"Site surveys", attach.Levels{ReadLevel: 3, WriteLevel: 2, DownloadLevel: 3}, []string{"Grid connection survey.pdf"}},
}

// seedAttachments gives each customer the folders of demoFolders with small real PDFs, uploaded
// through the same storage path as the console's (write grant, object, confirm, register).
func seedAttachments(ctx context.Context, a *app.App, root *access.Principal, customers map[string]int64) error {
	for code, customerID := range customers {
		for _, f := range demoFolders {
			folder, err := a.Attach.AddFolder(ctx, root, attach.FolderInput{CustomerID: customerID, Name: f.name, Levels: f.levels})
			if err != nil {
				return fmt.Errorf("folder %s of %s: %w", f.name, code, err)
			}
			for _, name := range f.files {
				g, err := a.Uploads.Write(ctx, root, storage.WriteInput{Kind: "file", FileName: "docs/" + name})
				if err != nil {
					return err
				}
				body := demoPDF(name)
				if _, err := a.Uploads.Store.Put(ctx, bytes.NewReader(body), storage.PutSpec{Key: g.ObjectKey, Size: int64(len(body)), ContentType: "application/pdf"}); err != nil {
					return err
				}
				if _, err := a.Uploads.Confirm(ctx, root, g.ObjectKey); err != nil {
					return err
				}
				if _, err := a.Attach.Add(ctx, root, attach.FileInput{FolderID: folder, ObjectKey: g.ObjectKey, Name: name, Description: "Demo document", Levels: f.levels}); err != nil {
					return fmt.Errorf("file %s of %s: %w", name, code, err)
				}
			}
		}
	}
	return nil
}

// demoPDF is a one-page PDF whose page shows title.
func demoPDF(title string) []byte {
	text := fmt.Sprintf("BT /F1 18 Tf 40 150 Td (%s) Tj ET", title)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(text), text),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
