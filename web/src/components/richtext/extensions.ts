/**
 * The editor's document model: StarterKit (links and underline included) and images that
 * remember their storage objectKey as `data-key` (internal/richtext stores the key, drops the
 * expiring src and signs it again for each reader).
 */
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';

export const StorageImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      dataKey: {
        default: null,
        parseHTML: (el: HTMLElement) => el.getAttribute('data-key'),
        renderHTML: (attrs: Record<string, unknown>) => (attrs.dataKey ? { 'data-key': attrs.dataKey } : {}),
      },
    };
  },
});

export function editorExtensions() {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], defaultProtocol: 'https' },
    }),
    StorageImage.configure({ inline: false, allowBase64: false }),
  ];
}
