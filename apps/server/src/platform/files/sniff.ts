/** A file kind recognised from its leading bytes, with the suffix and content type it is stored under. */
export type SniffedKind = { kind: string; suffix: string; contentType: string };

type Signature = SniffedKind & { test: (head: Buffer) => boolean };

const startsWith = (head: Buffer, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte);

/**
 * Magic numbers of the kinds uploads may be. The client's name and content type are not trusted: a text file
 * renamed to .png is refused. Issue 4's file management adds its kinds here.
 */
const SIGNATURES: Signature[] = [
  {
    kind: 'png',
    suffix: '.png',
    contentType: 'image/png',
    test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { kind: 'jpg', suffix: '.jpg', contentType: 'image/jpeg', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  {
    kind: 'webp',
    suffix: '.webp',
    contentType: 'image/webp',
    // RIFF....WEBP
    test: (h) => startsWith(h, [0x52, 0x49, 0x46, 0x46]) && startsWith(h, [0x57, 0x45, 0x42, 0x50], 8),
  },
  {
    kind: 'gif',
    suffix: '.gif',
    contentType: 'image/gif',
    test: (h) => startsWith(h, [0x47, 0x49, 0x46, 0x38]),
  },
  {
    kind: 'pdf',
    suffix: '.pdf',
    contentType: 'application/pdf',
    test: (h) => startsWith(h, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  },
];

/** The kind of `data` among `allowed`, or null when it is none of them. */
export function sniffKind(data: Buffer, allowed: readonly string[]): SniffedKind | null {
  const head = data.subarray(0, 16);
  for (const signature of SIGNATURES) {
    if (allowed.includes(signature.kind) && signature.test(head)) {
      return { kind: signature.kind, suffix: signature.suffix, contentType: signature.contentType };
    }
  }
  return null;
}
