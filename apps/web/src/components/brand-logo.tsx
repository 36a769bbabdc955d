import { useState } from 'react';

/** The profile's logo or favicon; if the image cannot load, the short name on the primary colour. */
export function BrandLogo({ src, text, size = 32 }: { src: string; text: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) {
    return (
      <img
        src={src}
        alt=""
        width={size}
        height={size}
        style={{ objectFit: 'contain', borderRadius: 6, flex: 'none' }}
        onError={() => setFailed(true)}
        data-testid="brand-logo"
      />
    );
  }
  return (
    <span
      aria-hidden
      style={{
        width: size,
        height: size,
        borderRadius: 6,
        background: 'var(--ant-color-primary, #0184FE)',
        color: '#fff',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontSize: size * 0.42,
        fontWeight: 700,
        flex: 'none',
      }}
    >
      {Array.from(text).slice(0, 2).join('')}
    </span>
  );
}
