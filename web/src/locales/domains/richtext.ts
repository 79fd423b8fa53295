/**
 * The rich-text editor (components/richtext), shared by tickets and the docs wiki.
 * Loaded with the modules that use them (locales/domains/index.ts), not with the entry.
 */
import type { DomainTexts } from './index';

export const richtextTexts: DomainTexts = {
  'en-US': {
    'richtext.toolbar': 'Formatting',
    'richtext.bold': 'Bold',
    'richtext.italic': 'Italic',
    'richtext.strike': 'Strikethrough',
    'richtext.heading': 'Heading {{level}}',
    'richtext.bulletList': 'Bulleted list',
    'richtext.orderedList': 'Numbered list',
    'richtext.blockquote': 'Quote',
    'richtext.codeBlock': 'Code block',
    'richtext.link': 'Link',
    'richtext.image': 'Insert image',
    'richtext.undo': 'Undo',
    'richtext.redo': 'Redo',
    'richtext.image.title': 'Insert image',
    'richtext.image.insert': 'Insert',
    'richtext.image.required': 'Please upload at least one image',
    'richtext.image.max': 'At most {{count}} images per insert.',
    'richtext.image.max_one': 'At most {{count}} image per insert.',
  },
  'zh-CN': {
    'richtext.toolbar': '格式',
    'richtext.bold': '加粗',
    'richtext.italic': '斜体',
    'richtext.strike': '删除线',
    'richtext.heading': '标题 {{level}}',
    'richtext.bulletList': '无序列表',
    'richtext.orderedList': '有序列表',
    'richtext.blockquote': '引用',
    'richtext.codeBlock': '代码块',
    'richtext.link': '链接',
    'richtext.image': '插入图片',
    'richtext.undo': '撤销',
    'richtext.redo': '重做',
    'richtext.image.title': '插入图片',
    'richtext.image.insert': '插入',
    'richtext.image.required': '请至少上传一张图片',
    'richtext.image.max': '每次最多插入 {{count}} 张图片。',
    'richtext.image.max_one': '每次最多插入 {{count}} 张图片。',
  },
};
