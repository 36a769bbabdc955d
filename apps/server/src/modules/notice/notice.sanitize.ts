import sanitizeHtml from 'sanitize-html';

/** Images may only come from the platform's own file preview (uploaded files), by a plain relative path. */
const OWN_IMAGE = /^\/api\/sysFile\/preview\/[A-Za-z0-9_.\-/]+$/;

const OPTIONS: sanitizeHtml.IOptions = {
  // What the rich-text editor produces, and a little more that pasted text brings (tables, code).
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'sub',
    'sup',
    'mark',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  // No javascript:, data:, vbscript: or other schemes; relative links stay.
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  // script, style, iframe… go with their content, not as text.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = { ...attribs, rel: 'noopener noreferrer' };
      if (out.target !== undefined && out.target !== '_blank') delete out.target;
      return { tagName, attribs: out };
    },
  },
  exclusiveFilter: (frame) => {
    if (frame.tag !== 'img') return false;
    const src = frame.attribs.src ?? '';
    return !OWN_IMAGE.test(src) || src.includes('..');
  },
};

/**
 * A notice body as it is stored and shown: an allow-list of formatting tags and attributes; no scripts,
 * styles, frames, event handlers or `javascript:` / `data:` URLs; images only from `/api/sysFile/preview/`;
 * links open with `rel="noopener noreferrer"`.
 */
export function sanitizeNoticeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
