"use client";

import { QRCodeSVG } from "qrcode.react";
import styles from "./funding.module.css";

// The deposit as a QR code for a phone wallet: the payment URI (EIP-681) names the token, the
// network, the deposit address and the amount, so a scan fills in the whole transfer. Drawn as
// SVG (crisp at any size, dark on white whatever the theme: scanners need the contrast), with
// the same facts in words beside it for anyone who cannot scan or see it.

export function PaymentQr({ uri, description }: { uri: string; description: string }) {
  return (
    <figure className={styles.qr} data-testid="deposit-qr" data-uri={uri}>
      <QRCodeSVG
        value={uri}
        size={168}
        level="M"
        marginSize={4}
        role="img"
        aria-label={`QR code: ${description}`}
      />
      <figcaption className="muted small">
        Scan with a phone wallet: it fills in the amount and the address.
      </figcaption>
    </figure>
  );
}
