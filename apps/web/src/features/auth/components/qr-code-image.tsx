import { Center, Image, Skeleton, Text } from '@mantine/core';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

const SIZE = 184;

/**
 * A QR code drawn here, never by an outside service (the secret must not leave the page): an SVG made by the
 * `qrcode` package, shown as a data: image (the CSP's img-src allows data:, and no script or style is inline).
 */
export function QrCodeImage({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setSrc(null);
    setFailed(false);
    qrSvg(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [value]);

  if (failed) {
    return (
      <Text size="sm" c="orange.9">
        The QR code could not be drawn: type the setup key below into your app instead.
      </Text>
    );
  }
  return (
    <Center>
      {src ? (
        <Image
          src={src}
          alt={label}
          w={SIZE}
          h={SIZE}
          radius="sm"
          style={{ border: '1px solid var(--mantine-color-gray-3)' }}
        />
      ) : (
        <Skeleton w={SIZE} h={SIZE} role="status" aria-label="Drawing the QR code" />
      )}
    </Center>
  );
}
